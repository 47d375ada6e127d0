import { Match } from 'aws-cdk-lib/assertions';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportsBucket, protocolsTable, API_ROUTES, dismissalsTable, distributionOf, environmentOf, jobsTable, roleOf, routeFunction, routeUrl, runnerTask, statementsOf, taskStateFunction } from '../resources.ts';
import type { ApiRoutePattern, Statement } from '../resources.ts';
import { only, referenceOf, render, synthesize } from '../support.ts';
import type { Found, Synthesized } from '../support.ts';

const actionsOf = (statement: Statement): string[] => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]);

describe('the QA API functions', () => {
  let synth: Synthesized;
  let route: (pattern: ApiRoutePattern) => Found;
  let statementsOfRoute: (pattern: ApiRoutePattern) => Statement[];

  beforeAll(() => {
    synth = synthesize();
    route = (pattern) => routeFunction(synth.template, pattern);
    statementsOfRoute = (pattern) => statementsOf(synth.template, roleOf(route(pattern)));
  });
  afterAll(() => synth.dispose());

  it('has no endpoint beside CloudFront: no API Gateway, function URLs that take only signed requests from the distribution', () => {
    expect(Object.keys(synth.template.toJSON().Resources as Record<string, { Type: string }>).filter((id) => /ApiGateway/.test(synth.template.toJSON().Resources[id].Type))).toEqual([]);
    const urls = Object.values(synth.template.findResources('AWS::Lambda::Url')).map((url) => url.Properties as { AuthType: string; TargetFunctionArn: unknown });
    expect(urls).toHaveLength(8);
    const distribution = distributionOf(synth.template).id;
    for (const pattern of API_ROUTES) {
      const url = routeUrl(synth.template, pattern).id;
      expect(urls).toContainEqual({ AuthType: 'AWS_IAM', TargetFunctionArn: { 'Fn::GetAtt': [route(pattern).id, 'Arn'] } });
      // Only this distribution may invoke it, through its URL.
      const permissions = Object.values(synth.template.findResources('AWS::Lambda::Permission'))
        .map((permission) => permission.Properties as { Action: string; FunctionName: unknown; Principal: string; SourceArn: unknown })
        .filter((permission) => referenceOf(permission.FunctionName) === url);
      expect(permissions.map((permission) => permission.Action).sort()).toEqual(['lambda:InvokeFunction', 'lambda:InvokeFunctionUrl']);
      for (const permission of permissions) {
        expect(permission.Principal).toBe('cloudfront.amazonaws.com');
        expect(render(permission.SourceArn)).toBe(`arn:{AWS::Partition}:cloudfront::{AWS::AccountId}:distribution/{${distribution}}`);
      }
    }
  });

  it('checks tokens in each function, for the app client only, whose id it reads from SSM', () => {
    const client = only(synth.template, 'AWS::Cognito::UserPoolClient').id;
    const parameter = only(synth.template, 'AWS::SSM::Parameter', { Value: { Ref: client } }).properties;
    expect(parameter).toMatchObject({ Type: 'String', Value: { Ref: client }, Name: '/ctpo/Ctpo/user-pool-client-id' });
    for (const pattern of API_ROUTES) {
      expect(environmentOf(route(pattern))).toMatchObject({ CTPO_USER_POOL_CLIENT_ID_PARAMETER: '/ctpo/Ctpo/user-pool-client-id' });
      const read = statementsOfRoute(pattern).filter((statement) => actionsOf(statement).includes('ssm:GetParameter'));
      expect(read).toHaveLength(1);
      expect(render(read[0]!.Resource)).toBe('arn:aws:ssm:ca-central-1:{AWS::AccountId}:parameter/ctpo/Ctpo/user-pool-client-id');
    }
  });

  it('lets other origins call the API only when the deployment asks for the developer origins', () => {
    const originsOf = (template: Template) =>
      (['/api/toc', '/api/run-tests', '/api/job-status/*'] as const).map((pattern) => environmentOf(routeFunction(template, pattern)).CTPO_ALLOWED_ORIGINS);
    expect(originsOf(synth.template)).toEqual(['', '', '']);
    const dev = synthesize({ devOrigins: true });
    try {
      expect(originsOf(dev.template)).toEqual(Array(3).fill('http://localhost:5173,https://localhost:8443'));
    } finally {
      dev.dispose();
    }
  });

  it('gives job-status the report-link key, rotated by its own function', () => {
    const secret = only(synth.template, 'AWS::SecretsManager::Secret').id;
    expect(environmentOf(route('/api/job-status/*'))).toMatchObject({ CTPO_REPORT_KEY_SECRET_ARN: { Ref: secret } });
    expect(statementsOfRoute('/api/job-status/*')).toContainEqual({ Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: secret } });
    for (const role of [roleOf(route('/api/toc')), roleOf(route('/api/run-tests')), roleOf(taskStateFunction(synth.template))]) {
      expect(JSON.stringify(statementsOf(synth.template, role))).not.toContain('secretsmanager');
    }
    synth.template.hasResourceProperties('AWS::SecretsManager::RotationSchedule', {
      SecretId: { Ref: secret },
      RotationRules: { ScheduleExpression: 'rate(30 days)' },
    });
  });

  it('runs each route and the task-state handler on Node.js 24, bundled by esbuild', () => {
    const handlers = [route('/api/toc'), route('/api/run-tests'), route('/api/job-status/*'), taskStateFunction(synth.template)];
    for (const handler of handlers) {
      expect(handler.properties).toMatchObject({ Runtime: 'nodejs24.x', Handler: 'index.handler', Architectures: ['arm64'] });
    }
  });

  it('gives the API functions the settings their code reads, and the reports address', () => {
    // On the site's own origin: the edge passes the host with each request.
    expect(environmentOf(route('/api/toc'))).toMatchObject({ CTPO_REPORTS_URL: '/reports/', CTPO_REPORT_EXPIRY_DAYS: '30' });
  });

  it('keeps each job current from ECS task state events of its own cluster', () => {
    const cluster = only(synth.template, 'AWS::ECS::Cluster').id;
    const handler = taskStateFunction(synth.template);
    synth.template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: ['aws.ecs'], 'detail-type': ['ECS Task State Change'], detail: { clusterArn: [{ 'Fn::GetAtt': [cluster, 'Arn'] }] } },
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [handler.id, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 7200 } })],
    });
    // A function of its own, not one behind CloudFront, that may move the job along.
    expect(API_ROUTES.map((pattern) => route(pattern).id)).not.toContain(handler.id);
    expect(statementsOf(synth.template, roleOf(handler))).toContainEqual(
      expect.objectContaining({ Action: expect.arrayContaining(['dynamodb:UpdateItem']), Resource: { 'Fn::GetAtt': [jobsTable(synth.template).id, 'Arn'] } }),
    );
  });

  it('grants each function only what its route does', () => {
    const table = { 'Fn::GetAtt': [jobsTable(synth.template).id, 'Arn'] };
    const taskState = roleOf(taskStateFunction(synth.template));
    const nonLog = (role: string) => statementsOf(synth.template, role).filter((statement) => !actionsOf(statement).every((action) => action.startsWith('logs:')));
    const routeRole = (pattern: ApiRoutePattern) => roleOf(route(pattern));
    // The table-of-contents loads a user has going, on limit keys only (test/infra/caller-limits.test.ts).
    expect(nonLog(routeRole('/api/toc')).map(actionsOf)).toEqual([['dynamodb:UpdateItem'], ['ssm:GetParameter']]);
    expect(nonLog(taskState)).toEqual([{ Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], Resource: table }]);
    expect(nonLog(routeRole('/api/job-status/*')).map(actionsOf)).toEqual([['ssm:GetParameter'], ['secretsmanager:GetSecretValue'], ['dynamodb:GetItem', 'dynamodb:UpdateItem'], ['ecs:DescribeTasks']]);
    const runTests = nonLog(routeRole('/api/run-tests'));
    expect(runTests.map(actionsOf)).toEqual([
      ['ssm:GetParameter'],
      ['dynamodb:BatchGetItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      ['kms:Encrypt'],
      ['dynamodb:Query'],
      ['sts:AssumeRole', 'sts:TagSession'],
      ['ecs:RunTask'],
      ['iam:PassRole'],
    ]);
    // The owner's previous run of the course, whose report the run's session may read; and that
    // session itself, of the job role only (test/infra/qa-api/runner.test.ts).
    expect(render(runTests[3]!.Resource)).toBe(`{${jobsTable(synth.template).id}.Arn}/index/by-owner-created`);
    const jobRole = only(synth.template, 'AWS::IAM::Role', { Description: Match.stringLikeRegexp('what one run may touch') });
    expect(runTests[4]!.Resource).toEqual({ 'Fn::GetAtt': [jobRole.id, 'Arn'] });
    expect(environmentOf(route('/api/run-tests')).CTPO_JOB_ROLE_ARN).toEqual({ 'Fn::GetAtt': [jobRole.id, 'Arn'] });
    const cluster = { 'Fn::GetAtt': [only(synth.template, 'AWS::ECS::Cluster').id, 'Arn'] };
    expect(runTests[5]).toMatchObject({ Resource: { Ref: runnerTask(synth.template).id }, Condition: { ArnEquals: { 'ecs:cluster': cluster } } });
    expect(runTests[6]).toMatchObject({ Condition: { StringEquals: { 'iam:PassedToService': 'ecs-tasks.amazonaws.com' } } });
    // The history: the owner index for the list of runs; the dismissals table, and the user pool for
    // the name a dismissal is recorded under.
    const ownerIndex = `{${jobsTable(synth.template).id}.Arn}/index/by-owner-created`;
    const jobList = nonLog(routeRole('/api/jobs'));
    // ... and the report-link key, to sign the links of the runs it lists as job-status does.
    // ... and the sign-offs of those runs.
    expect(jobList.map(actionsOf)).toEqual([['ssm:GetParameter'], ['dynamodb:Query'], ['secretsmanager:GetSecretValue'], ['dynamodb:BatchGetItem']]);
    const protocolsTableArn = { 'Fn::GetAtt': [protocolsTable(synth.template).id, 'Arn'] };
    expect(jobList[3]!.Resource).toEqual(protocolsTableArn);
    expect(render(jobList[1]!.Resource)).toBe(ownerIndex);
    expect(jobList[2]!.Resource).toEqual(nonLog(routeRole('/api/job-status/*'))[1]!.Resource);
    // Cancelling: the job ended in the jobs table, its task stopped with ECS StopTask in the runner cluster only.
    const cancelJob = nonLog(routeRole('/api/jobs/*'));
    expect(cancelJob.map(actionsOf)).toEqual([['ssm:GetParameter'], ['dynamodb:GetItem', 'dynamodb:UpdateItem'], ['ecs:StopTask']]);
    expect(cancelJob[1]).toMatchObject({ Resource: table });
    expect(cancelJob[2]).toMatchObject({ Effect: 'Allow', Resource: '*', Condition: { ArnEquals: { 'ecs:cluster': cluster } } });
    for (const role of [routeRole('/api/job-status/*'), routeRole('/api/jobs'), routeRole('/api/run-tests'), taskState]) {
      expect(JSON.stringify(statementsOf(synth.template, role)), 'only the cancel route stops tasks').not.toContain('ecs:StopTask');
    }
    const dismissals = { 'Fn::GetAtt': [dismissalsTable(synth.template).id, 'Arn'] };
    const pool = { 'Fn::GetAtt': [only(synth.template, 'AWS::Cognito::UserPool').id, 'Arn'] };
    expect(nonLog(routeRole('/api/dismissals')).slice(1)).toEqual([
      { Effect: 'Allow', Action: ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:Query'], Resource: dismissals },
      { Effect: 'Allow', Action: 'cognito-idp:AdminGetUser', Resource: pool },
    ]);
    // The protocols: the caller's protocols, answers and sign-offs; the job it signs off; its report,
    // read and written again; the user pool for the name an answer is recorded under.
    const protocols = nonLog(routeRole('/api/protocols'));
    expect(protocols.map(actionsOf)).toEqual([
      ['ssm:GetParameter'],
      ['dynamodb:BatchGetItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'],
      ['dynamodb:GetItem'],
      ['s3:GetObject', 's3:PutObject'],
      ['cognito-idp:AdminGetUser'],
    ]);
    expect(protocols[1]!.Resource).toEqual(protocolsTableArn);
    expect(protocols[2]!.Resource).toEqual(table);
    expect(render(protocols[3]!.Resource)).toBe(`{${reportsBucket(synth.template).id}.Arn}/reports/*`);
    expect(protocols[4]!.Resource).toEqual(pool);
    // Revoking report links: the revocation time written into the edge's key store, with its ETag;
    // no table, no other store, no other KeyValueStore action (not even reading the keys).
    const store = only(synth.template, 'AWS::CloudFront::KeyValueStore');
    const reportLinks = nonLog(routeRole('/api/report-links'));
    expect(reportLinks.slice(1)).toEqual([
      { Effect: 'Allow', Action: ['cloudfront-keyvaluestore:DescribeKeyValueStore', 'cloudfront-keyvaluestore:UpdateKeys'], Resource: { 'Fn::GetAtt': [store.id, 'Arn'] } },
    ]);
    expect(actionsOf(reportLinks[0]!)).toEqual(['ssm:GetParameter']);
    expect(environmentOf(route('/api/report-links')).CTPO_REPORT_KEY_STORE_ARN).toEqual({ 'Fn::GetAtt': [store.id, 'Arn'] });
    expect(route('/api/report-links').properties.ReservedConcurrentExecutions).toBe(5);
    for (const pattern of API_ROUTES.filter((pattern) => pattern !== '/api/report-links')) {
      expect(JSON.stringify(statementsOf(synth.template, routeRole(pattern))), 'only report-links writes revocations').not.toContain('keyvaluestore:UpdateKeys');
    }
    // Each function writes only to its own log group.
    for (const fn of [...API_ROUTES.map(route), taskStateFunction(synth.template)]) {
      const logs = statementsOf(synth.template, roleOf(fn)).filter((statement) => actionsOf(statement).every((action) => action.startsWith('logs:')));
      expect(logs).toHaveLength(1);
      const ownLogGroup = referenceOf((fn.properties.LoggingConfig as { LogGroup: unknown }).LogGroup);
      expect(render(logs[0]!.Resource)).toBe(`{${ownLogGroup}.Arn}:*`);
    }
  });
});
