import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render, resourceNamed, synthesize } from './support.ts';
import type { Synthesized } from './support.ts';

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Principal?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

const actionsOf = (statement: Statement): string[] => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]);

describe('the QA API construct', () => {
  let synth: Synthesized;
  let statementsOfRole: (rolePrefix: string) => Statement[];
  let roleIdOf: (rolePrefix: string) => string;

  beforeAll(() => {
    synth = synthesize();
    roleIdOf = (rolePrefix) => resourceNamed(synth.template, 'AWS::IAM::Role', rolePrefix).id;
    statementsOfRole = (rolePrefix) => {
      const roleId = roleIdOf(rolePrefix);
      return Object.values(synth.template.findResources('AWS::IAM::Policy'))
        .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
    };
  });
  afterAll(() => synth.dispose());

  it('has no endpoint beside CloudFront: no API Gateway, function URLs that take only signed requests from the distribution', () => {
    expect(Object.keys(synth.template.toJSON().Resources as Record<string, { Type: string }>).filter((id) => /ApiGateway/.test(synth.template.toJSON().Resources[id].Type))).toEqual([]);
    const urls = Object.values(synth.template.findResources('AWS::Lambda::Url')).map((url) => url.Properties as { AuthType: string; TargetFunctionArn: unknown });
    expect(urls).toHaveLength(5);
    const distribution = resourceNamed(synth.template, 'AWS::CloudFront::Distribution', 'SiteDistribution').id;
    for (const name of ['Toc', 'RunTests', 'JobStatus', 'JobList', 'DismissalRoutes']) {
      const fn = Object.keys(synth.template.findResources('AWS::Lambda::Function')).find((id) => new RegExp(`^QaApi${name}[0-9A-F]{8}$`).test(id))!;
      expect(urls).toContainEqual({ AuthType: 'AWS_IAM', TargetFunctionArn: { 'Fn::GetAtt': [fn, 'Arn'] } });
      // Only this distribution may invoke it, through its URL.
      const permissions = Object.values(synth.template.findResources('AWS::Lambda::Permission'))
        .map((permission) => permission.Properties as { Action: string; FunctionName: unknown; Principal: string; SourceArn: unknown })
        .filter((permission) => JSON.stringify(permission.FunctionName).includes(`QaApi${name}FunctionUrl`));
      expect(permissions.map((permission) => permission.Action).sort()).toEqual(['lambda:InvokeFunction', 'lambda:InvokeFunctionUrl']);
      for (const permission of permissions) {
        expect(permission.Principal).toBe('cloudfront.amazonaws.com');
        expect(render(permission.SourceArn)).toBe(`arn:{AWS::Partition}:cloudfront::{AWS::AccountId}:distribution/{${distribution}}`);
      }
    }
  });

  it('checks tokens in each function, for the app client only, whose id it reads from SSM', () => {
    const client = resourceNamed(synth.template, 'AWS::Cognito::UserPoolClient', 'IdentityUserPoolWebClient').id;
    const parameter = resourceNamed(synth.template, 'AWS::SSM::Parameter', 'QaApiClientIdParameter').properties;
    expect(parameter).toMatchObject({ Type: 'String', Value: { Ref: client }, Name: '/ctpo/Ctpo/user-pool-client-id' });
    for (const name of ['Toc', 'RunTests', 'JobStatus', 'JobList', 'DismissalRoutes']) {
      const [, fn] = Object.entries(synth.template.findResources('AWS::Lambda::Function')).find(([id]) => new RegExp(`^QaApi${name}[0-9A-F]{8}$`).test(id))!;
      expect(fn.Properties.Environment.Variables).toMatchObject({ CTPO_USER_POOL_CLIENT_ID_PARAMETER: '/ctpo/Ctpo/user-pool-client-id' });
      const read = statementsOfRole(`QaApi${name}Role`).filter((statement) => actionsOf(statement).includes('ssm:GetParameter'));
      expect(read).toHaveLength(1);
      expect(render(read[0]!.Resource)).toBe('arn:aws:ssm:ca-central-1:{AWS::AccountId}:parameter/ctpo/Ctpo/user-pool-client-id');
    }
  });

  it('lets other origins call the API only when the deployment asks for the developer origins', () => {
    const originsOf = (template: typeof synth.template) =>
      Object.entries(template.findResources('AWS::Lambda::Function'))
        .filter(([id]) => /^QaApi(Toc|RunTests|JobStatus)[0-9A-F]{8}$/.test(id))
        .map(([, fn]) => (fn.Properties.Environment.Variables as Record<string, unknown>).CTPO_ALLOWED_ORIGINS);
    expect(originsOf(synth.template)).toEqual(['', '', '']);
    const dev = synthesize({ devOrigins: true });
    try {
      expect(originsOf(dev.template)).toEqual(Array(3).fill('http://localhost:5173,https://localhost:8443'));
    } finally {
      dev.dispose();
    }
  });

  it('gives job-status the report-link key, rotated by its own function', () => {
    const secret = resourceNamed(synth.template, 'AWS::SecretsManager::Secret', 'QaApiReportKeysSecret').id;
    const [, jobStatus] = Object.entries(synth.template.findResources('AWS::Lambda::Function')).find(([id]) => /^QaApiJobStatus[0-9A-F]{8}$/.test(id))!;
    expect(jobStatus.Properties.Environment.Variables).toMatchObject({ CTPO_REPORT_KEY_SECRET_ARN: { Ref: secret } });
    expect(statementsOfRole('QaApiJobStatusRole')).toContainEqual({ Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: secret } });
    for (const role of ['QaApiTocRole', 'QaApiRunTestsRole', 'QaApiTaskStateRole']) expect(JSON.stringify(statementsOfRole(role))).not.toContain('secretsmanager');
    synth.template.hasResourceProperties('AWS::SecretsManager::RotationSchedule', {
      SecretId: { Ref: secret },
      RotationRules: { ScheduleExpression: 'rate(30 days)' },
    });
  });

  it('runs each route and the task-state handler on Node.js 24, bundled by esbuild', () => {
    const handlers = ['QaApiToc', 'QaApiRunTests', 'QaApiJobStatus', 'QaApiTaskState'].map(
      (prefix) => Object.entries(synth.template.findResources('AWS::Lambda::Function')).find(([id]) => new RegExp(`^${prefix}[0-9A-F]{8}$`).test(id))!,
    );
    for (const [, handler] of handlers) {
      expect(handler.Properties).toMatchObject({ Runtime: 'nodejs24.x', Handler: 'index.handler', Architectures: ['arm64'] });
    }
  });

  it('gives the API functions the settings their code reads, and the reports address', () => {
    const toc = Object.entries(synth.template.findResources('AWS::Lambda::Function')).find(([id]) => /^QaApiToc[0-9A-F]{8}$/.test(id))!;
    const variables = toc[1].Properties.Environment.Variables as Record<string, unknown>;
    // On the site's own origin: the edge passes the host with each request.
    expect(variables).toMatchObject({ CTPO_REPORTS_URL: '/reports/', CTPO_REPORT_EXPIRY_DAYS: '30' });
  });

  it('keeps jobs in DynamoDB, expiring with their reports, with the owner indexes the run limit and the history read', () => {
    synth.template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      GlobalSecondaryIndexes: [
        Match.objectLike({
          IndexName: 'by-owner',
          KeySchema: [
            { AttributeName: 'owner', KeyType: 'HASH' },
            { AttributeName: 'statusRank', KeyType: 'RANGE' },
          ],
        }),
        {
          IndexName: 'by-owner-created',
          KeySchema: [
            { AttributeName: 'owner', KeyType: 'HASH' },
            { AttributeName: 'createdAt', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
  });

  it('keeps dismissals in a table of their own, per user and course, with no expiry', () => {
    const table = resourceNamed(synth.template, 'AWS::DynamoDB::GlobalTable', 'QaApiDismissals').properties;
    expect(table).toMatchObject({
      KeySchema: [
        { AttributeName: 'course', KeyType: 'HASH' },
        { AttributeName: 'fingerprint', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    });
    expect(table.TimeToLiveSpecification).toBeUndefined();
    const functions = Object.entries(synth.template.findResources('AWS::Lambda::Function'));
    const [, dismissals] = functions.find(([id]) => /^QaApiDismissalRoutes[0-9A-F]{8}$/.test(id))!;
    expect(render(dismissals.Properties.Environment.Variables.CTPO_DISMISSALS_TABLE)).toMatch(/^\{QaApiDismissals\w+\}$/);
    const task = resourceNamed(synth.template, 'AWS::ECS::TaskDefinition', 'QaApiRunner').properties as { ContainerDefinitions: { Environment: { Name: string }[] }[] };
    expect(task.ContainerDefinitions[0]!.Environment.map((variable) => variable.Name)).toContain('CTPO_DISMISSALS_TABLE');
  });

  it('keeps reports private and deletes them after the configured expiry', () => {
    const reports = resourceNamed(synth.template, 'AWS::S3::Bucket', 'QaApiReports').properties;
    expect(reports).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LifecycleConfiguration: { Rules: [expect.objectContaining({ ExpirationInDays: 30, Status: 'Enabled' })] },
    });
    const longer = synthesize({ reportExpiryDays: 90 });
    try {
      expect(resourceNamed(longer.template, 'AWS::S3::Bucket', 'QaApiReports').properties).toMatchObject({
        LifecycleConfiguration: { Rules: [expect.objectContaining({ ExpirationInDays: 90 })] },
      });
    } finally {
      longer.dispose();
    }
  });

  it('runs each test as a Fargate task from the runner image, with no credentials in its definition', () => {
    const task = resourceNamed(synth.template, 'AWS::ECS::TaskDefinition', 'QaApiRunner').properties as {
      RequiresCompatibilities: string[];
      ContainerDefinitions: { Name: string; Environment: { Name: string; Value: unknown }[]; ReadonlyRootFilesystem: boolean; Image: unknown }[];
    };
    expect(task).toMatchObject({ RequiresCompatibilities: ['FARGATE'], Cpu: '1024', Memory: '3072', NetworkMode: 'awsvpc' });
    const [container] = task.ContainerDefinitions;
    expect(container).toMatchObject({ Name: 'runner', ReadonlyRootFilesystem: true, Essential: true });
    expect(JSON.stringify(container!.Image)).toContain('container-assets');
    const names = container!.Environment.map((variable) => variable.Name);
    expect(names).toEqual(expect.arrayContaining(['CTPO_JOBS_TABLE', 'CTPO_REPORTS_BUCKET', 'CTPO_REPORTS_PREFIX', 'CTPO_CREDENTIALS_KEY_ARN']));
    expect(names.join(' ')).not.toMatch(/PASSWORD|USER_NAME|CREDENTIALS(?!_KEY)/);
    expect(JSON.stringify(task)).not.toMatch(/password/i);
  });

  it('keeps each job current from ECS task state events of its own cluster', () => {
    const cluster = resourceNamed(synth.template, 'AWS::ECS::Cluster', 'QaApiCluster').id;
    const handler = Object.keys(synth.template.findResources('AWS::Lambda::Function')).find((id) => /^QaApiTaskState[0-9A-F]{8}$/.test(id))!;
    synth.template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: ['aws.ecs'], 'detail-type': ['ECS Task State Change'], detail: { clusterArn: [{ 'Fn::GetAtt': [cluster, 'Arn'] }] } },
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [handler, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 7200 } })],
    });
  });

  it('lets run-tests encrypt and only the runner decrypt the credentials, both bound to a job', () => {
    const key = resourceNamed(synth.template, 'AWS::KMS::Key', 'QaApiCredentialsKey');
    expect(key.properties.EnableKeyRotation).toBe(true);
    const keyArn = { 'Fn::GetAtt': [key.id, 'Arn'] };
    const boundToJob = { 'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['ctpo-job-id'] }, Null: { 'kms:EncryptionContext:ctpo-job-id': 'false' } };

    const encrypt = statementsOfRole('QaApiRunTestsRole').filter((statement) => actionsOf(statement).some((action) => action.startsWith('kms:')));
    expect(encrypt).toEqual([{ Effect: 'Allow', Action: 'kms:Encrypt', Resource: keyArn, Condition: boundToJob }]);
    const decrypt = statementsOfRole('QaApiRunnerTaskRole').filter((statement) => actionsOf(statement).some((action) => action.startsWith('kms:')));
    expect(decrypt).toEqual([{ Effect: 'Allow', Action: 'kms:Decrypt', Resource: keyArn, Condition: boundToJob }]);
    for (const role of ['QaApiTocRole', 'QaApiJobStatusRole', 'QaApiTaskStateRole', 'QaApiRunnerExecutionRole']) {
      expect(JSON.stringify(statementsOfRole(role))).not.toContain('kms:');
    }
    // Whatever IAM policy anyone is given later, the key itself refuses Decrypt to all but the runner.
    const keyPolicy = key.properties.KeyPolicy as { Statement: Statement[] };
    expect(keyPolicy.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 'kms:Decrypt',
        Condition: { ArnNotEquals: { 'aws:PrincipalArn': { 'Fn::GetAtt': [roleIdOf('QaApiRunnerTaskRole'), 'Arn'] } } },
      }),
    );
  });

  it('grants each function only what its route does', () => {
    const table = { 'Fn::GetAtt': [resourceNamed(synth.template, 'AWS::DynamoDB::GlobalTable', 'QaApiJobs').id, 'Arn'] };
    const nonLog = (role: string) => statementsOfRole(role).filter((statement) => !actionsOf(statement).every((action) => action.startsWith('logs:')));
    expect(nonLog('QaApiTocRole').map(actionsOf)).toEqual([['ssm:GetParameter']]);
    expect(nonLog('QaApiTaskStateRole')).toEqual([{ Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], Resource: table }]);
    expect(nonLog('QaApiJobStatusRole').map(actionsOf)).toEqual([['ssm:GetParameter'], ['secretsmanager:GetSecretValue'], ['dynamodb:GetItem', 'dynamodb:UpdateItem'], ['ecs:DescribeTasks']]);
    const runTests = nonLog('QaApiRunTestsRole');
    expect(runTests.map(actionsOf)).toEqual([
      ['ssm:GetParameter'],
      ['dynamodb:BatchGetItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      ['kms:Encrypt'],
      ['ecs:RunTask'],
      ['iam:PassRole'],
    ]);
    const cluster = { 'Fn::GetAtt': [resourceNamed(synth.template, 'AWS::ECS::Cluster', 'QaApiCluster').id, 'Arn'] };
    expect(runTests[3]).toMatchObject({ Resource: { Ref: resourceNamed(synth.template, 'AWS::ECS::TaskDefinition', 'QaApiRunner').id }, Condition: { ArnEquals: { 'ecs:cluster': cluster } } });
    expect(runTests[4]).toMatchObject({ Condition: { StringEquals: { 'iam:PassedToService': 'ecs-tasks.amazonaws.com' } } });
    // The history: the owner index for the list of runs; the dismissals table, and the user pool for
    // the name a dismissal is recorded under.
    const ownerIndex = /^\{QaApiJobs\w+\.Arn\}\/index\/by-owner-created$/;
    const jobList = nonLog('QaApiJobListRole');
    // ... and the report-link key, to sign the links of the runs it lists as job-status does.
    expect(jobList.map(actionsOf)).toEqual([['ssm:GetParameter'], ['dynamodb:Query'], ['secretsmanager:GetSecretValue']]);
    expect(render(jobList[1]!.Resource)).toMatch(ownerIndex);
    expect(jobList[2]!.Resource).toEqual(nonLog('QaApiJobStatusRole')[1]!.Resource);
    const dismissalsTable = { 'Fn::GetAtt': [resourceNamed(synth.template, 'AWS::DynamoDB::GlobalTable', 'QaApiDismissals').id, 'Arn'] };
    const pool = { 'Fn::GetAtt': [resourceNamed(synth.template, 'AWS::Cognito::UserPool', 'IdentityUserPool').id, 'Arn'] };
    expect(nonLog('QaApiDismissalRoutesRole').slice(1)).toEqual([
      { Effect: 'Allow', Action: ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:Query'], Resource: dismissalsTable },
      { Effect: 'Allow', Action: 'cognito-idp:AdminGetUser', Resource: pool },
    ]);
    // Each function writes only to its own log group.
    for (const name of ['Toc', 'RunTests', 'JobStatus', 'JobList', 'DismissalRoutes', 'TaskState']) {
      const logs = statementsOfRole(`QaApi${name}Role`).filter((statement) => actionsOf(statement).every((action) => action.startsWith('logs:')));
      expect(logs).toHaveLength(1);
      expect(render(logs[0]!.Resource)).toMatch(new RegExp(`^\\{QaApi${name}Logs\\w+\\.Arn\\}:\\*$`));
    }
    // The runner writes its job and reports under reports/, and reads the course's history: the
    // previous report, the owner index, the dismissals. Nothing else.
    const runner = statementsOfRole('QaApiRunnerTaskRole');
    expect(runner.map(actionsOf)).toEqual([['dynamodb:GetItem', 'dynamodb:UpdateItem'], ['s3:GetObject', 's3:PutObject'], ['dynamodb:Query'], ['kms:Decrypt']]);
    expect(render(runner[1]!.Resource)).toMatch(/^\{QaApiReports\w+\.Arn\}\/reports\/\*$/);
    const history = runner[2]!.Resource as unknown[];
    expect(history).toHaveLength(2);
    expect(history).toContainEqual(dismissalsTable);
    expect(history.map((resource) => render(resource)).filter((text) => ownerIndex.test(text))).toHaveLength(1);
  });

  it('starts runs in public subnets without a NAT gateway, behind a security group that admits nothing', () => {
    synth.template.resourceCountIs('AWS::EC2::NatGateway', 0);
    const group = resourceNamed(synth.template, 'AWS::EC2::SecurityGroup', 'QaApiRunnerSecurityGroup').properties;
    expect(group.SecurityGroupIngress).toBeUndefined();
    synth.template.resourceCountIs('AWS::EC2::SecurityGroupIngress', 0);
  });
});
