// The keys that sign report links: a Secrets Manager secret the job-status function signs with, and
// the CloudFront KeyValueStore the reports behaviour's function checks links against, kept in step
// by a rotation function every 30 days (infra/lambda/report-key-rotation.ts).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { KEY_STORE_ENV } from '../lambda/report-key-rotation.ts';
import { acknowledgeWildcardResource } from './nag.ts';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ROTATION_ENTRY = 'infra/lambda/report-key-rotation.ts';
/** How often the signing key changes; a link must expire well within it to survive one rotation. */
export const REPORT_KEY_ROTATION_DAYS = 30;

export class ReportKeys extends Construct {
  readonly secret: secretsmanager.Secret;
  readonly store: cloudfront.KeyValueStore;
  readonly rotation: nodejs.NodejsFunction;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.store = new cloudfront.KeyValueStore(this, 'Store', { comment: 'CTPO: the keys that check report links at the edge' });

    // The first key; the first rotation, right after deployment, puts it and its successor into the
    // store. `key` is 64 letters and digits, about 380 bits.
    this.secret = new secretsmanager.Secret(this, 'Secret', {
      description: 'CTPO: the key that signs report links ({"keyId","key"}), rotated automatically',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ keyId: 'k0' }),
        generateStringKey: 'key',
        passwordLength: 64,
        excludePunctuation: true,
        includeSpace: false,
      },
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const logGroup = new logs.LogGroup(this, 'RotationLogs', { retention: logs.RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    const role = new iam.Role(this, 'RotationRole', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [`${logGroup.logGroupArn}:*`] }));
    acknowledgeWildcardResource(role, `${logGroup.logGroupArn}:*`, 'Log streams are named by Lambda at run time; the role may write only to its own log group.');
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [
          'cloudfront-keyvaluestore:DescribeKeyValueStore',
          'cloudfront-keyvaluestore:ListKeys',
          'cloudfront-keyvaluestore:GetKey',
          'cloudfront-keyvaluestore:UpdateKeys',
        ],
        resources: [this.store.keyValueStoreArn],
      }),
    );
    this.rotation = new nodejs.NodejsFunction(this, 'Rotation', {
      entry: join(REPO_ROOT, ROTATION_ENTRY),
      handler: 'handler',
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 256,
      timeout: Duration.seconds(30),
      role,
      logGroup,
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      environment: { [KEY_STORE_ENV]: this.store.keyValueStoreArn },
      bundling: {
        format: nodejs.OutputFormat.ESM,
        target: 'node24',
        minify: true,
        bundleAwsSDK: true,
        mainFields: ['module', 'main'],
        banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
    // Secrets Manager calls the function and grants it the secret's rotation actions.
    this.secret.addRotationSchedule('Rotation', { rotationLambda: this.rotation, automaticallyAfter: Duration.days(REPORT_KEY_ROTATION_DAYS) });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'CDK grants every rotation function secretsmanager:GetRandomPassword, an action that applies to no resource narrower than *.',
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'The secret is rotated every 30 days by its own rotation function (infra/lambda/report-key-rotation.ts).',
    });
  }
}
