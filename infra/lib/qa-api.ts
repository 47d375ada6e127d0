// The QA API on AWS: a Lambda function per route running the same route handlers as the local server
// (each checks the caller's Cognito access token itself), reachable only through the site's
// CloudFront distribution (function URLs with IAM auth, signed by origin access control), the jobs
// table, the reports bucket and the keys that sign report links, and the runs themselves, one ECS
// Fargate task each, whose state EventBridge feeds back to the jobs.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Fn, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecrAssets from 'aws-cdk-lib/aws-ecr-assets';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { OWNER_CREATED_INDEX } from '../../api/aws/dynamo-job-history.ts';
import { EXPIRES_AT, OWNER_INDEX } from '../../api/aws/dynamo-job-store.ts';
import { CREDENTIALS_CONTEXT_KEY, ENV } from '../../api/aws/settings.ts';
import { acknowledgeWildcardResource } from './nag.ts';
import { ReportKeys } from './report-keys.ts';
import { REPORTS_PREFIX } from './site.ts';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RUNNER_CONTAINER = 'runner';

/** The Lambda entry files, one per route plus the task-state handler. */
export const LAMBDA_ENTRIES = {
  toc: 'api/aws/lambda/toc.ts',
  runTests: 'api/aws/lambda/run-tests.ts',
  jobStatus: 'api/aws/lambda/job-status.ts',
  jobs: 'api/aws/lambda/jobs.ts',
  dismissals: 'api/aws/lambda/dismissals.ts',
  taskState: 'api/aws/lambda/task-state.ts',
} as const;
export const RUNNER_DOCKERFILE = 'infra/runner/Dockerfile';
/** The runner task's memory: the engine and a headless Chromium, with room to spare. */
export const RUNNER_MEMORY_MIB = 3072;

export interface QaApiProps {
  userPool: cognito.IUserPool;
  /** The app's client: the only audience the API accepts tokens for. */
  client: cognito.IUserPoolClient;
  /** Days a report and its job record are kept. */
  reportExpiryDays: number;
  /**
   * Origins of apps served elsewhere that may call the API (local development against the deployed
   * stack, only when the deployment asks for it). The deployed app needs none: it reaches the API
   * on its own origin.
   */
  corsOrigins: readonly string[];
}

/** The routes CloudFront sends to each function. */
export type ApiRoute = 'toc' | 'runTests' | 'jobStatus' | 'jobs' | 'dismissals';

export class QaApi extends Construct {
  /** Callable only with SigV4 (AWS_IAM): in practice only by the site's distribution. */
  readonly functionUrls: Record<ApiRoute, lambda.FunctionUrl>;
  readonly reportsBucket: s3.Bucket;
  readonly reportKeys: ReportKeys;
  readonly jobsTable: dynamodb.TableV2;
  /** Findings users dismissed, per user and course: no expiry, a dismissal stays until restored. */
  readonly dismissalsTable: dynamodb.TableV2;
  readonly cluster: ecs.Cluster;
  readonly taskDefinition: ecs.FargateTaskDefinition;
  readonly credentialsKey: kms.Key;
  readonly functions: Record<keyof typeof LAMBDA_ENTRIES, nodejs.NodejsFunction>;

  constructor(scope: Construct, id: string, props: QaApiProps) {
    super(scope, id);

    // --- Storage -------------------------------------------------------------------------------
    this.reportsBucket = new s3.Bucket(this, 'Reports', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [
        { id: 'expire-reports', expiration: Duration.days(props.reportExpiryDays), abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // Reports expire anyway; tearing the stack down takes them with it.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    Validations.of(this.reportsBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Reports are written only by the runner task role and read through CloudFront; S3 access logs would add a second bucket for no operational need.',
    });

    this.jobsTable = new dynamodb.TableV2(this, 'Jobs', {
      partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING },
      billing: dynamodb.Billing.onDemand(),
      timeToLiveAttribute: EXPIRES_AT,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      globalSecondaryIndexes: [
        {
          indexName: OWNER_INDEX,
          partitionKey: { name: 'owner', type: dynamodb.AttributeType.STRING },
          sortKey: { name: 'statusRank', type: dynamodb.AttributeType.NUMBER },
          projectionType: dynamodb.ProjectionType.KEYS_ONLY,
        },
        {
          // A user's runs newest first (GET /api/jobs) and the previous run of a course (the runner).
          indexName: OWNER_CREATED_INDEX,
          partitionKey: { name: 'owner', type: dynamodb.AttributeType.STRING },
          sortKey: { name: 'createdAt', type: dynamodb.AttributeType.STRING },
          projectionType: dynamodb.ProjectionType.ALL,
        },
      ],
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.dismissalsTable = new dynamodb.TableV2(this, 'Dismissals', {
      partitionKey: { name: 'course', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'fingerprint', type: dynamodb.AttributeType.STRING },
      billing: dynamodb.Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Tearing the stack down takes everything with it, as it does the jobs.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // --- The runner: one Fargate task per run ----------------------------------------------------
    // Public subnets and no NAT gateway: a NAT gateway costs about 32 USD a month at rest, and a task
    // only makes outbound calls (Brightspace, the links it checks, AWS APIs). Its security group
    // admits nothing inbound.
    const vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 }],
    });
    Validations.of(vpc).acknowledge({
      id: 'CloudFormation-Validate::W3010',
      reason: 'The stack names its two zones (CtpoStack.availabilityZones) so synth needs no AWS lookup; `a` and `b` exist in every region.',
    });
    vpc.addFlowLog('FlowLog', {
      trafficType: ec2.FlowLogTrafficType.REJECT,
      destination: ec2.FlowLogDestination.toCloudWatchLogs(
        new logs.LogGroup(this, 'FlowLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
      ),
    });
    const runnerSecurityGroup = new ec2.SecurityGroup(this, 'RunnerSecurityGroup', {
      vpc,
      description: 'CTPO test runs: outbound only',
      allowAllOutbound: true,
    });

    this.cluster = new ecs.Cluster(this, 'Cluster', { vpc, containerInsightsV2: ecs.ContainerInsights.DISABLED });
    Validations.of(this.cluster).acknowledge({
      id: 'AwsSolutions-ECS4',
      reason: 'Runs are short batch tasks whose outcome is in the jobs table and whose output is in CloudWatch Logs; Container Insights metrics would bill at rest.',
    });

    this.credentialsKey = new kms.Key(this, 'CredentialsKey', {
      description: 'CTPO: encrypts the Brightspace credentials a run hands to its Fargate task',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });

    // The engine stays under 800 MB; headless Chromium for the browser checks takes 500-650 MiB more
    // (`npm run browser-memory`, docs/reliability.md). 3 GB keeps that peak under half the task.
    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'Runner', {
      cpu: 1024,
      memoryLimitMiB: RUNNER_MEMORY_MIB,
      runtimePlatform: { operatingSystemFamily: ecs.OperatingSystemFamily.LINUX, cpuArchitecture: ecs.CpuArchitecture.X86_64 },
    });
    this.taskDefinition.addVolume({ name: 'tmp' });
    const container = this.taskDefinition.addContainer(RUNNER_CONTAINER, {
      image: ecs.ContainerImage.fromAsset(REPO_ROOT, {
        file: RUNNER_DOCKERFILE,
        platform: ecrAssets.Platform.LINUX_AMD64,
        // Only what the image copies: the asset hash then ignores node_modules, the app and tests.
        exclude: ['*', '!package.json', '!package-lock.json', '!api', '!infra', 'infra/*', '!infra/runner', '**/*.tsbuildinfo'],
      }),
      essential: true,
      readonlyRootFilesystem: true,
      logging: ecs.LogDrivers.awsLogs({
        streamPrefix: 'run',
        logGroup: new logs.LogGroup(this, 'RunnerLogs', { retention: logs.RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY }),
      }),
      environment: {
        [ENV.jobsTable]: this.jobsTable.tableName,
        [ENV.dismissalsTable]: this.dismissalsTable.tableName,
        [ENV.reportExpiryDays]: String(props.reportExpiryDays),
        [ENV.reportsBucket]: this.reportsBucket.bucketName,
        [ENV.reportsPrefix]: REPORTS_PREFIX,
        [ENV.credentialsKey]: this.credentialsKey.keyArn,
        NODE_ENV: 'production',
      },
    });
    container.addMountPoints({ sourceVolume: 'tmp', containerPath: '/tmp', readOnly: false });
    Validations.of(this.taskDefinition).acknowledge({
      id: 'AwsSolutions-ECS2',
      reason: 'The environment holds only resource names; the per-run credentials arrive KMS-encrypted in the RunTask overrides.',
    });

    const taskRole = this.taskDefinition.taskRole;
    const reportObjects = this.reportsBucket.arnForObjects(`${REPORTS_PREFIX}*`);
    taskRole.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [this.jobsTable.tableArn] }));
    // The previous report of the course is read back to compare with (report/compare.ts).
    taskRole.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject'], resources: [reportObjects] }));
    acknowledgeWildcardResource(taskRole, reportObjects, 'Report names are made per run; the runner may read and write only under the reports/ prefix of the reports bucket.');
    // The previous successful run of the course, and what its owner dismissed for it.
    taskRole.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${this.jobsTable.tableArn}/index/${OWNER_CREATED_INDEX}`, this.dismissalsTable.tableArn] }),
    );
    taskRole.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['kms:Decrypt'],
        resources: [this.credentialsKey.keyArn],
        conditions: { 'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [CREDENTIALS_CONTEXT_KEY] }, Null: { [`kms:EncryptionContext:${CREDENTIALS_CONTEXT_KEY}`]: 'false' } },
      }),
    );
    // The key policy's account statement lets IAM policies grant use of the key; this makes sure
    // no policy can ever let anyone but the runner read the credentials.
    this.credentialsKey.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'OnlyTheRunnerDecrypts',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['kms:Decrypt'],
        resources: ['*'],
        conditions: { ArnNotEquals: { 'aws:PrincipalArn': taskRole.roleArn } },
      }),
    );
    Validations.of(this.taskDefinition.obtainExecutionRole()).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'ecr:GetAuthorizationToken, which ECS needs to pull the runner image, applies to no resource narrower than *.',
    });

    // --- The API ---------------------------------------------------------------------------------
    const runSettings: Record<string, string> = {
      [ENV.cluster]: this.cluster.clusterArn,
      [ENV.taskDefinition]: this.taskDefinition.taskDefinitionArn,
      [ENV.containerName]: RUNNER_CONTAINER,
      [ENV.subnets]: Fn.join(',', vpc.publicSubnets.map((subnet) => subnet.subnetId)),
      [ENV.securityGroups]: runnerSecurityGroup.securityGroupId,
      [ENV.credentialsKey]: this.credentialsKey.keyArn,
    };
    // The functions behind CloudFront read the app client's id from SSM at cold start: the client
    // names the site as its callback, the site names the functions' URLs, so a direct reference
    // from function to client would close a circle. The parameter's ARN is built from its literal
    // name for the same reason.
    const stack = Stack.of(this);
    const clientIdParameterName = `/ctpo/${stack.stackName}/user-pool-client-id`;
    new ssm.StringParameter(this, 'ClientIdParameter', {
      parameterName: clientIdParameterName,
      stringValue: props.client.userPoolClientId,
      description: 'CTPO: the app client whose access tokens the API accepts',
    });
    const clientIdParameterArn = stack.formatArn({ service: 'ssm', resource: 'parameter', resourceName: clientIdParameterName.slice(1) });
    const common: Record<string, string> = {
      [ENV.jobsTable]: this.jobsTable.tableName,
      [ENV.reportExpiryDays]: String(props.reportExpiryDays),
      [ENV.userPoolId]: props.userPool.userPoolId,
      [ENV.userPoolClientIdParameter]: clientIdParameterName,
      [ENV.allowedOrigins]: props.corsOrigins.join(','),
    };

    const toc = this.apiFunction('Toc', LAMBDA_ENTRIES.toc, { ...common }, Duration.seconds(29), 1024);
    const runTests = this.apiFunction('RunTests', LAMBDA_ENTRIES.runTests, { ...common, ...runSettings }, Duration.seconds(20), 512);
    this.reportKeys = new ReportKeys(this, 'ReportKeys');
    const jobStatus = this.apiFunction(
      'JobStatus',
      LAMBDA_ENTRIES.jobStatus,
      { ...common, [ENV.cluster]: this.cluster.clusterArn, [ENV.containerName]: RUNNER_CONTAINER, [ENV.reportKeySecret]: this.reportKeys.secret.secretArn },
      Duration.seconds(10),
      512,
    );
    const taskState = this.apiFunction('TaskState', LAMBDA_ENTRIES.taskState, { ...common, [ENV.containerName]: RUNNER_CONTAINER }, Duration.seconds(30), 256);
    const jobs = this.apiFunction('JobList', LAMBDA_ENTRIES.jobs, { ...common, [ENV.reportKeySecret]: this.reportKeys.secret.secretArn }, Duration.seconds(10), 512);
    const dismissals = this.apiFunction('DismissalRoutes', LAMBDA_ENTRIES.dismissals, { ...common, [ENV.dismissalsTable]: this.dismissalsTable.tableName }, Duration.seconds(10), 512);
    this.functions = { toc, runTests, jobStatus, jobs, dismissals, taskState };
    for (const route of [toc, runTests, jobStatus, jobs, dismissals]) {
      route.addToRolePolicy(new iam.PolicyStatement({ actions: ['ssm:GetParameter'], resources: [clientIdParameterArn] }));
    }

    // run-tests: take a run slot (conditional writes on slot items, read in batches, given back with
    // a conditional delete) and record the job, encrypt, start the task.
    runTests.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem', 'dynamodb:DeleteItem'],
        resources: [this.jobsTable.tableArn],
      }),
    );
    runTests.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['kms:Encrypt'],
        resources: [this.credentialsKey.keyArn],
        conditions: { 'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [CREDENTIALS_CONTEXT_KEY] }, Null: { [`kms:EncryptionContext:${CREDENTIALS_CONTEXT_KEY}`]: 'false' } },
      }),
    );
    runTests.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ecs:RunTask'],
        resources: [this.taskDefinition.taskDefinitionArn],
        conditions: { ArnEquals: { 'ecs:cluster': this.cluster.clusterArn } },
      }),
    );
    runTests.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [taskRole.roleArn, this.taskDefinition.obtainExecutionRole().roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'ecs-tasks.amazonaws.com' } },
      }),
    );
    // job-status: read the job, ask ECS about one that has gone quiet, sign its report link.
    jobStatus.addToRolePolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [this.reportKeys.secret.secretArn] }));
    jobStatus.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [this.jobsTable.tableArn] }));
    jobStatus.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ecs:DescribeTasks'],
        resources: ['*'],
        conditions: { ArnEquals: { 'ecs:cluster': this.cluster.clusterArn } },
      }),
    );
    if (jobStatus.role !== undefined) {
      acknowledgeWildcardResource(jobStatus.role, '*', 'Task ids are made by ECS at run time; the condition limits DescribeTasks to the runner cluster.');
    }
    // jobs: the caller's runs, newest first, from the owner index.
    jobs.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${this.jobsTable.tableArn}/index/${OWNER_CREATED_INDEX}`] }));
    // ... each succeeded run's report link signed, as job-status signs it.
    jobs.addToRolePolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [this.reportKeys.secret.secretArn] }));
    // dismissals: the caller's dismissed findings of a course, recorded under their e-mail.
    dismissals.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:DeleteItem'], resources: [this.dismissalsTable.tableArn] }),
    );
    dismissals.addToRolePolicy(new iam.PolicyStatement({ actions: ['cognito-idp:AdminGetUser'], resources: [props.userPool.userPoolArn] }));
    // task-state: move the job along with its task.
    taskState.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [this.jobsTable.tableArn] }));

    // No API Gateway: each route's function has a URL that takes only SigV4-signed requests, and
    // only the site's distribution may sign them (FunctionUrlOrigin.withOriginAccessControl grants
    // it). So there is no endpoint beside CloudFront, where WAF limits each caller's rate.
    this.functionUrls = {
      toc: toc.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM }),
      runTests: runTests.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM }),
      jobStatus: jobStatus.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM }),
      jobs: jobs.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM }),
      dismissals: dismissals.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM }),
    };

    // --- Task state back into the jobs -------------------------------------------------------------
    new events.Rule(this, 'TaskStateChanges', {
      description: 'CTPO: keep each job current with its Fargate task',
      eventPattern: {
        source: ['aws.ecs'],
        detailType: ['ECS Task State Change'],
        detail: { clusterArn: [this.cluster.clusterArn] },
      },
      // A lost event is not lost for good: job-status asks ECS about a job that has gone quiet.
      targets: [new targets.LambdaFunction(taskState, { retryAttempts: 8, maxEventAge: Duration.hours(2) })],
    });
  }

  /** The address reports are served from (`outputUrl`), known only once the site exists. */
  publishReportsAt(reportsUrl: string): void {
    for (const route of [this.functions.toc, this.functions.runTests, this.functions.jobStatus, this.functions.jobs, this.functions.dismissals]) {
      route.addEnvironment(ENV.reportsUrl, reportsUrl);
    }
  }

  private apiFunction(id: string, entry: string, environment: Record<string, string>, timeout: Duration, memorySize: number): nodejs.NodejsFunction {
    // Each function gets its own role and log group, and may write to that log group only (the
    // managed AWSLambdaBasicExecutionRole policy would allow any log group in the account).
    const logGroup = new logs.LogGroup(this, `${id}Logs`, { retention: logs.RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    const role = new iam.Role(this, `${id}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [`${logGroup.logGroupArn}:*`] }),
    );
    const fn = new nodejs.NodejsFunction(this, id, {
      entry: join(REPO_ROOT, entry),
      handler: 'handler',
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize,
      timeout,
      role,
      logGroup,
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      environment: { ...environment, NODE_OPTIONS: '--enable-source-maps' },
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
      },
    });
    acknowledgeWildcardResource(role, `${logGroup.logGroupArn}:*`, 'Log streams are named by Lambda at run time; the role may write only to its own function’s log group.');
    return fn;
  }
}
