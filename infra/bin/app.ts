// The CDK app: reads the deployment's parameters, builds the CTPO stack in ca-central-1, and runs
// the cdk-nag AwsSolutions checks on every synth.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { CtpoStack } from '../lib/ctpo-stack.ts';
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
const { stackName, ...stackParameters } = parameters;

new CtpoStack(app, stackName, {
  // The account is whichever the CLI's credentials name; synth works without any.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: REGION },
  description: 'CTPO: Course Testing Protocol Observer (site, sign-in and QA API)',
  parameters: stackParameters,
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
