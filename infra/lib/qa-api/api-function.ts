// One Lambda function of the QA API: the handler bundled by esbuild for Node.js 24, with a role and a
// log group of its own.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RemovalPolicy } from 'aws-cdk-lib';
import type { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { acknowledgeWildcardResource } from '../nag.ts';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface ApiFunctionProps {
  /** The handler's file, from the repository root. */
  entry: string;
  environment: Record<string, string>;
  timeout: Duration;
  memorySize: number;
  /**
   * Packages whose own files the code reads at run time (not only their code), copied beside the
   * bundle from the installed node_modules: the report writers read axe-core's script and locales.
   */
  packageFiles?: readonly string[];
}

/**
 * The function `id` in `scope`, beside its log group (`<id>Logs`) and role (`<id>Role`): siblings,
 * not children, so that each keeps the logical ID it has always had.
 */
export function apiFunction(scope: Construct, id: string, props: ApiFunctionProps): nodejs.NodejsFunction {
  // Each function gets its own role and log group, and may write to that log group only (the
  // managed AWSLambdaBasicExecutionRole policy would allow any log group in the account).
  const logGroup = new logs.LogGroup(scope, `${id}Logs`, { retention: logs.RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
  const role = new iam.Role(scope, `${id}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [`${logGroup.logGroupArn}:*`] }));
  const fn = new nodejs.NodejsFunction(scope, id, {
    entry: join(REPO_ROOT, props.entry),
    handler: 'handler',
    runtime: lambda.Runtime.NODEJS_24_X,
    architecture: lambda.Architecture.ARM_64,
    memorySize: props.memorySize,
    timeout: props.timeout,
    role,
    logGroup,
    projectRoot: REPO_ROOT,
    depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
    environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
    bundling: {
      format: nodejs.OutputFormat.ESM,
      target: 'node24',
      minify: true,
      sourceMap: true,
      sourcesContent: false,
      // The SDK versions this code is tested with, not whichever the runtime carries.
      bundleAwsSDK: true,
      mainFields: ['module', 'main'],
      // Some dependencies are CommonJS and call require(); ESM output needs it defined.
      banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      ...(props.packageFiles === undefined || props.packageFiles.length === 0
        ? {}
        : {
            commandHooks: {
              beforeBundling: () => [],
              beforeInstall: () => [],
              afterBundling: (inputDir: string, outputDir: string) =>
                (props.packageFiles ?? []).map((name) => `mkdir -p "${outputDir}/node_modules" && cp -R "${inputDir}/node_modules/${name}" "${outputDir}/node_modules/${name}"`),
            },
          }),
    },
  });
  acknowledgeWildcardResource(role, `${logGroup.logGroupArn}:*`, 'Log streams are named by Lambda at run time; the role may write only to its own function’s log group.');
  return fn;
}
