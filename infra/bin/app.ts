// The CDK app: reads the deployment's parameters, builds the CTPO stack in ca-central-1 with its
// edge stack in us-east-1, and runs the cdk-nag AwsSolutions checks on every synth.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildCtpo } from '../lib/app.ts';
import { ParameterError, readParameters } from '../lib/parameters.ts';

/** Cognito and everything else live in Canada Central. */
export const REGION = 'ca-central-1';

const app = new App();
let parameters;
try {
  parameters = readParameters({ context: (key) => app.node.tryGetContext(key), env: process.env });
} catch (error) {
  if (error instanceof ParameterError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
// The account is whichever the CLI's credentials name; synth works without any.
buildCtpo(app, { parameters, region: REGION, account: process.env.CDK_DEFAULT_ACCOUNT });
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
