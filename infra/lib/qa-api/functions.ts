// The QA API's Lambda functions: one per route, running the same route handlers as the local server
// (each checks the caller's Cognito access token itself), reachable only through the site's
// CloudFront distribution; and the task-state handler, which EventBridge calls as each run's Fargate
// task changes state. Each function may do only what its route does.
import { Duration, Stack } from 'aws-cdk-lib';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { LIMIT_KEY_PREFIX } from '../../../api/aws/dynamo-concurrency-limit.ts';
import { ENV } from '../../../api/aws/settings.ts';
import { Grouping } from '../logical-ids.ts';
import { acknowledgeWildcardResource } from '../nag.ts';
import type { ReportKeys } from '../report-keys.ts';
import { apiFunction } from './api-function.ts';
import { RUNNER_CONTAINER, boundToAJob } from './runner.ts';
import type { QaApiRunner } from './runner.ts';
import { REPORTS_PREFIX } from './storage.ts';
import type { QaApiStorage } from './storage.ts';

/** The Lambda entry files, one per route plus the task-state handler. */
export const LAMBDA_ENTRIES = {
  toc: 'api/aws/lambda/toc.ts',
  runTests: 'api/aws/lambda/run-tests.ts',
  jobStatus: 'api/aws/lambda/job-status.ts',
  jobs: 'api/aws/lambda/jobs.ts',
  cancelJob: 'api/aws/lambda/cancel-job.ts',
  dismissals: 'api/aws/lambda/dismissals.ts',
  protocols: 'api/aws/lambda/protocols.ts',
  reportLinks: 'api/aws/lambda/report-links.ts',
  taskState: 'api/aws/lambda/task-state.ts',
} as const;

/** The routes CloudFront sends to each function. */
export type ApiRoute = 'toc' | 'runTests' | 'jobStatus' | 'jobs' | 'cancelJob' | 'dismissals' | 'protocols' | 'reportLinks';

export interface QaApiFunctionsProps {
  userPool: cognito.IUserPool;
  /** The app's client: the only audience the API accepts tokens for. */
  client: cognito.IUserPoolClient;
  /** Days a report and its job record are kept. */
  reportExpiryDays: number;
  /** Origins of apps served elsewhere that may call the API (none unless the deployment asks). */
  corsOrigins: readonly string[];
  storage: QaApiStorage;
  runner: QaApiRunner;
  /** The key job-status and the jobs list sign report links with. */
  reportKeys: ReportKeys;
}

export class QaApiFunctions extends Grouping {
  readonly functions: Record<keyof typeof LAMBDA_ENTRIES, nodejs.NodejsFunction>;
  /** Callable only with SigV4 (AWS_IAM): in practice only by the site's distribution. */
  readonly functionUrls: Record<ApiRoute, lambda.FunctionUrl>;

  constructor(scope: Construct, id: string, props: QaApiFunctionsProps) {
    super(scope, id);
    const { storage, runner, reportKeys } = props;

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
      [ENV.jobsTable]: storage.jobsTable.tableName,
      [ENV.reportExpiryDays]: String(props.reportExpiryDays),
      [ENV.userPoolId]: props.userPool.userPoolId,
      [ENV.userPoolClientIdParameter]: clientIdParameterName,
      [ENV.allowedOrigins]: props.corsOrigins.join(','),
    };
    const reportKey = reportKeys.secret.secretArn;

    const toc = apiFunction(this, 'Toc', { entry: LAMBDA_ENTRIES.toc, environment: { ...common }, timeout: Duration.seconds(29), memorySize: 1024 });
    const runTests = apiFunction(this, 'RunTests', {
      entry: LAMBDA_ENTRIES.runTests,
      environment: { ...common, ...runner.runSettings },
      timeout: Duration.seconds(20),
      memorySize: 512,
    });
    const jobStatus = apiFunction(this, 'JobStatus', {
      entry: LAMBDA_ENTRIES.jobStatus,
      environment: { ...common, [ENV.cluster]: runner.cluster.clusterArn, [ENV.containerName]: RUNNER_CONTAINER, [ENV.reportKeySecret]: reportKey },
      timeout: Duration.seconds(10),
      memorySize: 512,
    });
    const taskState = apiFunction(this, 'TaskState', {
      entry: LAMBDA_ENTRIES.taskState,
      environment: { ...common, [ENV.containerName]: RUNNER_CONTAINER },
      timeout: Duration.seconds(30),
      memorySize: 256,
    });
    const jobs = apiFunction(this, 'JobList', {
      entry: LAMBDA_ENTRIES.jobs,
      environment: { ...common, [ENV.reportKeySecret]: reportKey, [ENV.protocolsTable]: storage.protocolsTable.tableName },
      timeout: Duration.seconds(10),
      memorySize: 512,
    });
    const cancelJob = apiFunction(this, 'CancelJob', {
      entry: LAMBDA_ENTRIES.cancelJob,
      environment: { ...common, [ENV.cluster]: runner.cluster.clusterArn },
      timeout: Duration.seconds(10),
      memorySize: 256,
    });
    const dismissals = apiFunction(this, 'DismissalRoutes', {
      entry: LAMBDA_ENTRIES.dismissals,
      environment: { ...common, [ENV.dismissalsTable]: storage.dismissalsTable.tableName },
      timeout: Duration.seconds(10),
      memorySize: 512,
    });
    const protocols = apiFunction(this, 'ProtocolRoutes', {
      entry: LAMBDA_ENTRIES.protocols,
      environment: {
        ...common,
        [ENV.protocolsTable]: storage.protocolsTable.tableName,
        [ENV.reportsBucket]: storage.reportsBucket.bucketName,
        [ENV.reportsPrefix]: REPORTS_PREFIX,
      },
      timeout: Duration.seconds(15),
      memorySize: 1024,
      // Signing off writes the run's report again, whose writers read axe-core's rule texts.
      packageFiles: ['axe-core'],
    });
    // DELETE /api/report-links: the caller's revocation time, into the store the edge checks links against.
    const reportLinks = apiFunction(this, 'ReportLinkRoutes', {
      entry: LAMBDA_ENTRIES.reportLinks,
      environment: { ...common, [ENV.reportKeyStore]: reportKeys.store.keyValueStoreArn },
      timeout: Duration.seconds(10),
      memorySize: 256,
    });
    this.functions = { toc, runTests, jobStatus, jobs, cancelJob, dismissals, protocols, reportLinks, taskState };
    // One user's loads of tables of contents at once are counted in the jobs table, in items keyed
    // `limit:toc:<sub>` only (api/aws/dynamo-concurrency-limit.ts): the function can touch no job.
    toc.addToRolePolicy(new iam.PolicyStatement({
      actions: ['dynamodb:UpdateItem'],
      resources: [storage.jobsTable.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${LIMIT_KEY_PREFIX}toc:*`] } },
    }));
    // Each function keeps a share of the account's concurrency of its own, so a flood of one route
    // (tables of contents hold an instance for up to 29 s) cannot starve the others, and no route can
    // take more than its share. 145 of the account's 1,000 by default; an account whose limit is
    // lower (new accounts may start at 10) must ask for more before deploying.
    for (const [fn, reserved] of [[toc, 40], [runTests, 15], [jobStatus, 30], [jobs, 15], [cancelJob, 5], [dismissals, 15], [protocols, 10], [reportLinks, 5], [taskState, 10]] as const) {
      (fn.node.defaultChild as lambda.CfnFunction).reservedConcurrentExecutions = reserved;
    }
    for (const route of this.routes()) {
      route.addToRolePolicy(new iam.PolicyStatement({ actions: ['ssm:GetParameter'], resources: [clientIdParameterArn] }));
    }

    // run-tests: take a run slot (conditional writes on slot items, read in batches, given back with
    // a conditional delete) and record the job, encrypt, start the task.
    runTests.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem', 'dynamodb:DeleteItem'],
        resources: [storage.jobsTable.tableArn],
      }),
    );
    runTests.addToRolePolicy(new iam.PolicyStatement({ actions: ['kms:Encrypt'], resources: [runner.credentialsKey.keyArn], conditions: boundToAJob() }));
    // ... look up the owner's previous run of the course (the one report the run may read), and take
    // the run's session of the job role, tagged with its job (runner.jobRoleFor).
    runTests.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: [storage.jobHistoryIndexArn] }));
    if (runTests.role === undefined) throw new Error('run-tests has a role of its own.');
    runTests.addEnvironment(ENV.jobRole, runner.jobRoleFor(runTests.role).roleArn);
    runTests.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ecs:RunTask'],
        resources: [runner.taskDefinition.taskDefinitionArn],
        conditions: { ArnEquals: { 'ecs:cluster': runner.cluster.clusterArn } },
      }),
    );
    runTests.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [runner.taskDefinition.taskRole.roleArn, runner.taskDefinition.obtainExecutionRole().roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'ecs-tasks.amazonaws.com' } },
      }),
    );
    // job-status: read the job, ask ECS about one that has gone quiet, sign its report link.
    jobStatus.addToRolePolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [reportKey] }));
    jobStatus.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [storage.jobsTable.tableArn] }));
    jobStatus.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ecs:DescribeTasks'],
        resources: ['*'],
        conditions: { ArnEquals: { 'ecs:cluster': runner.cluster.clusterArn } },
      }),
    );
    if (jobStatus.role !== undefined) {
      acknowledgeWildcardResource(jobStatus.role, '*', 'Task ids are made by ECS at run time; the condition limits DescribeTasks to the runner cluster.');
    }
    // jobs: the caller's runs, newest first, from the owner index.
    jobs.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: [storage.jobHistoryIndexArn] }));
    // ... each succeeded run's report link signed, as job-status signs it.
    jobs.addToRolePolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [reportKey] }));
    // cancel-job: end the caller's job as cancelled, and stop its task (in the runner cluster only).
    cancelJob.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [storage.jobsTable.tableArn] }));
    cancelJob.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ecs:StopTask'],
        resources: ['*'],
        conditions: { ArnEquals: { 'ecs:cluster': runner.cluster.clusterArn } },
      }),
    );
    if (cancelJob.role !== undefined) {
      acknowledgeWildcardResource(cancelJob.role, '*', 'Task ids are made by ECS at run time; the condition limits StopTask to the runner cluster.');
    }
    // dismissals: the caller's dismissed findings of a course, recorded under their e-mail.
    dismissals.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:DeleteItem'], resources: [storage.dismissalsTable.tableArn] }),
    );
    dismissals.addToRolePolicy(new iam.PolicyStatement({ actions: ['cognito-idp:AdminGetUser'], resources: [props.userPool.userPoolArn] }));
    // jobs: ... and who marked each run ready for launch.
    jobs.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:BatchGetItem'], resources: [storage.protocolsTable.tableArn] }));
    // protocols: the caller's protocols, answers and sign-offs, recorded under their e-mail; the run
    // it signs off read from the jobs table, and its report read and written again.
    protocols.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:BatchGetItem'],
        resources: [storage.protocolsTable.tableArn],
      }),
    );
    protocols.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:GetItem'], resources: [storage.jobsTable.tableArn] }));
    const reportObjects = storage.reportsBucket.arnForObjects(`${REPORTS_PREFIX}*`);
    protocols.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject'], resources: [reportObjects] }));
    if (protocols.role !== undefined) {
      acknowledgeWildcardResource(protocols.role, reportObjects, 'A signed-off run writes its own report again; report names are made per run, under the reports/ prefix only.');
    }
    protocols.addToRolePolicy(new iam.PolicyStatement({ actions: ['cognito-idp:AdminGetUser'], resources: [props.userPool.userPoolArn] }));
    // report-links: write one key of the edge's store, with its ETag; nothing else there, and no table.
    reportLinks.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['cloudfront-keyvaluestore:DescribeKeyValueStore', 'cloudfront-keyvaluestore:UpdateKeys'],
        resources: [reportKeys.store.keyValueStoreArn],
      }),
    );
    // task-state: move the job along with its task.
    taskState.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [storage.jobsTable.tableArn] }));

    // No API Gateway: each route's function has a URL that takes only SigV4-signed requests, and
    // only the site's distribution may sign them (FunctionUrlOrigin.withOriginAccessControl grants
    // it). So there is no endpoint beside CloudFront, where WAF limits each caller's rate.
    this.functionUrls = {
      toc: toc.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM }),
      runTests: runTests.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM }),
      jobStatus: jobStatus.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM }),
      jobs: jobs.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM }),
      cancelJob: cancelJob.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM }),
      dismissals: dismissals.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM }),
      protocols: protocols.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM }),
      reportLinks: reportLinks.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM }),
    };

    // Task state back into the jobs.
    new events.Rule(this, 'TaskStateChanges', {
      description: 'CTPO: keep each job current with its Fargate task',
      eventPattern: {
        source: ['aws.ecs'],
        detailType: ['ECS Task State Change'],
        detail: { clusterArn: [runner.cluster.clusterArn] },
      },
      // A lost event is not lost for good: job-status asks ECS about a job that has gone quiet.
      targets: [new targets.LambdaFunction(taskState, { retryAttempts: 8, maxEventAge: Duration.hours(2) })],
    });
  }

  /** The address reports are served from (`outputUrl`), known only once the site exists. */
  publishReportsAt(reportsUrl: string): void {
    for (const route of this.routes()) route.addEnvironment(ENV.reportsUrl, reportsUrl);
  }

  /** The functions behind CloudFront: all but the task-state handler. */
  private routes(): nodejs.NodejsFunction[] {
    const { toc, runTests, jobStatus, jobs, cancelJob, dismissals, protocols, reportLinks } = this.functions;
    return [toc, runTests, jobStatus, jobs, cancelJob, dismissals, protocols, reportLinks];
  }
}
