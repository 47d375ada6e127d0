// CloudFormation replaces a resource whose logical ID changes, so these IDs are pinned: a change to
// the constructs that would rename (and so replace) a resource that holds data or carries a fixed
// name fails here first. Each resource is found by what it is; the ID expected is the one deployed.
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsKey, dismissalsTable, protocolsTable, jobsTable, reportsBucket, rotationFunction, routeFunction, runnerTask, taskStateFunction } from './resources.ts';
import type { ApiRoutePattern } from './resources.ts';
import { only, referenceOf, synthesize } from './support.ts';
import type { Found, Synthesized } from './support.ts';

/** The types of resource that hold data, or that a fixed name keeps from being made twice. */
const STATEFUL = [
  'AWS::Cognito::UserPool',
  'AWS::Cognito::UserPoolDomain',
  'AWS::DynamoDB::GlobalTable',
  'AWS::S3::Bucket',
  // Renamed, the old one would be deleted, and deleting it empties its bucket.
  'Custom::S3AutoDeleteObjects',
  'AWS::KMS::Key',
  'AWS::SecretsManager::Secret',
  'AWS::CloudFront::KeyValueStore',
  'AWS::SSM::Parameter',
  'AWS::Logs::LogGroup',
];

type Find = (template: Template) => string;

const logGroupOf = (fn: Found): string => referenceOf((fn.properties.LoggingConfig as { LogGroup: unknown }).LogGroup);
const routeLogs = (pattern: ApiRoutePattern): Find => (template) => logGroupOf(routeFunction(template, pattern));
/** The bucket the app is deployed to. */
const appBucket: Find = (template) => referenceOf(only(template, 'Custom::CDKBucketDeployment', { DestinationBucketKeyPrefix: 'assets/' }).properties.DestinationBucketName);
const autoDeleteOf = (bucket: Find): Find => (template) => only(template, 'Custom::S3AutoDeleteObjects', { BucketName: { Ref: bucket(template) } }).id;
/** The log group Lambda writes to by default, named after the function. */
const defaultLogsOf = (functionId: string): Find => (template) =>
  only(template, 'AWS::Logs::LogGroup', { LogGroupName: { 'Fn::Join': ['', ['/aws/lambda/', { Ref: functionId }]] } }).id;

const STACK: [string, Find, string][] = [
  ['the user pool', (t) => only(t, 'AWS::Cognito::UserPool').id, 'IdentityUserPool96FE3B9B'],
  ['the hosted login domain', (t) => only(t, 'AWS::Cognito::UserPoolDomain').id, 'IdentityUserPoolHostedLogin006E8354'],
  ['the jobs table', (t) => jobsTable(t).id, 'QaApiJobs14A4748D'],
  ['the dismissals table', (t) => dismissalsTable(t).id, 'QaApiDismissals7B8681ED'],
  ['the protocols table', (t) => protocolsTable(t).id, 'QaApiProtocols039B17FA'],
  [
    'the verdicts table',
    (t) => only(t, 'AWS::DynamoDB::GlobalTable', { KeySchema: [{ AttributeName: 'course', KeyType: 'HASH' }, { AttributeName: 'key', KeyType: 'RANGE' }] }).id,
    'QaApiVerdicts6B98093E',
  ],
  ['the reports bucket', (t) => reportsBucket(t).id, 'QaApiReportsFD714834'],
  ["the reports bucket's emptying on delete", autoDeleteOf((t) => reportsBucket(t).id), 'QaApiReportsAutoDeleteObjectsCustomResourceFD7CFEBD'],
  ['the app bucket', appBucket, 'SiteBucket978D4AEB'],
  ["the app bucket's emptying on delete", autoDeleteOf(appBucket), 'SiteBucketAutoDeleteObjectsCustomResource6B1A5EC1'],
  ['the credentials key', (t) => credentialsKey(t).id, 'QaApiCredentialsKey0F2839D6'],
  ['the report-link key', (t) => only(t, 'AWS::SecretsManager::Secret').id, 'QaApiReportKeysSecret9DE3DB19'],
  ['the report-link key store', (t) => only(t, 'AWS::CloudFront::KeyValueStore').id, 'QaApiReportKeysStoreCB9E3F0F'],
  ['the client-id parameter', (t) => only(t, 'AWS::SSM::Parameter', { Name: '/ctpo/Ctpo/user-pool-client-id' }).id, 'QaApiClientIdParameter3F2A3113'],
  ["the table-of-contents function's logs", routeLogs('/api/toc'), 'QaApiTocLogs5D9B6B97'],
  ["the run-tests function's logs", routeLogs('/api/run-tests'), 'QaApiRunTestsLogs2B0B24EF'],
  ["the job-status function's logs", routeLogs('/api/job-status/*'), 'QaApiJobStatusLogsC9531C11'],
  ["the jobs function's logs", routeLogs('/api/jobs'), 'QaApiJobListLogsC3BDF924'],
  ["the cancel function's logs", routeLogs('/api/jobs/*'), 'QaApiCancelJobLogsE04C40F1'],
  ["the dismissals function's logs", routeLogs('/api/dismissals'), 'QaApiDismissalRoutesLogs58BC10E6'],
  ["the protocols function's logs", routeLogs('/api/protocols'), 'QaApiProtocolRoutesLogs6DF08F92'],
  ["the report-links function's logs", routeLogs('/api/report-links'), 'QaApiReportLinkRoutesLogs6BED6883'],
  ["the task-state function's logs", (t) => logGroupOf(taskStateFunction(t)), 'QaApiTaskStateLogs25894457'],
  ["the key rotation's logs", (t) => logGroupOf(rotationFunction(t)), 'QaApiReportKeysRotationLogs11306202'],
  [
    "the runs' logs",
    (t) => referenceOf((runnerTask(t).properties.ContainerDefinitions as { LogConfiguration: { Options: Record<string, unknown> } }[])[0]!.LogConfiguration.Options['awslogs-group']),
    'QaApiRunnerLogs69671A9B',
  ],
  ["the runner network's flow logs", (t) => referenceOf(only(t, 'AWS::EC2::FlowLog').properties.LogGroupName), 'QaApiFlowLogs3158AD01'],
  [
    "the app deployment's logs",
    (t) => defaultLogsOf(referenceOf(only(t, 'Custom::CDKBucketDeployment', { DestinationBucketKeyPrefix: 'assets/' }).properties.ServiceToken))(t),
    'CustomCDKBucketDeployment8693BB64968944B69AAFB0CC9EB8756C512MiBLogGroup4F3F55A8',
  ],
];

const EDGE: [string, Find, string][] = [
  ["the body hash's version parameter, read across regions", (t) => only(t, 'AWS::SSM::Parameter', { Name: '/cdk/EdgeFunctionArn/ca-central-1/Ctpo/Site/ApiBodyHash' }).id, 'ApiBodyHashParameter560A90F1'],
  ["the body hash's logs", (t) => defaultLogsOf(only(t, 'AWS::Lambda::Function').id)(t), 'ApiBodyHashLogGroup7FD8E1F6'],
];

describe('the CTPO stacks', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth.dispose());

  it.each(STACK)('keep the logical ID of %s', (_what, find, id) => {
    expect(find(synth.template)).toBe(id);
  });

  it.each(EDGE)('keep the logical ID of %s in the edge stack', (_what, find, id) => {
    expect(find(synth.edgeTemplate)).toBe(id);
  });

  it('pin every resource that holds data or a fixed name', () => {
    for (const [template, pinned] of [
      [synth.template, STACK],
      [synth.edgeTemplate, EDGE],
    ] as const) {
      const stateful = Object.entries(template.toJSON().Resources as Record<string, { Type: string }>)
        .filter(([, { Type }]) => STATEFUL.includes(Type))
        .map(([id]) => id);
      expect(stateful.sort()).toEqual(pinned.map(([, , id]) => id).sort());
    }
  });
});
