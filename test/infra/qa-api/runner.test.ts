import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protocolsTable, credentialsKey, dismissalsTable, environmentOf, jobsTable, reportsBucket, roleOf, routeFunction, runnerTask, statementsOf, taskStateFunction, verdictsTable } from '../resources.ts';
import type { Statement } from '../resources.ts';
import { Match } from 'aws-cdk-lib/assertions';
import { REPO_ROOT, only, referenceOf, render, synthesize } from '../support.ts';
import type { Synthesized } from '../support.ts';

const actionsOf = (statement: Statement): string[] => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]);

describe('the QA API runner', () => {
  let synth: Synthesized;
  /** The runner task's own role, and the role ECS pulls its image and writes its logs with. */
  let taskRole: string;
  let executionRole: string;

  beforeAll(() => {
    synth = synthesize();
    const task = runnerTask(synth.template).properties;
    taskRole = referenceOf(task.TaskRoleArn);
    executionRole = referenceOf(task.ExecutionRoleArn);
  });
  afterAll(() => synth.dispose());

  it('runs each test as a Fargate task from the runner image, with no credentials in its definition', () => {
    const task = runnerTask(synth.template).properties as {
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

  it('lets run-tests encrypt and only the runner decrypt the credentials, both bound to a job', () => {
    const key = credentialsKey(synth.template);
    expect(key.properties.EnableKeyRotation).toBe(true);
    const keyArn = { 'Fn::GetAtt': [key.id, 'Arn'] };
    const boundToJob = { 'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['ctpo-job-id'] }, Null: { 'kms:EncryptionContext:ctpo-job-id': 'false' } };
    const roleStatements = (role: string) => statementsOf(synth.template, role);
    const functionRole = (route: Parameters<typeof routeFunction>[1]) => roleOf(routeFunction(synth.template, route));

    const encrypt = roleStatements(functionRole('/api/run-tests')).filter((statement) => actionsOf(statement).some((action) => action.startsWith('kms:')));
    expect(encrypt).toEqual([{ Effect: 'Allow', Action: 'kms:Encrypt', Resource: keyArn, Condition: boundToJob }]);
    const decrypt = roleStatements(taskRole).filter((statement) => actionsOf(statement).some((action) => action.startsWith('kms:')));
    expect(decrypt).toEqual([{ Effect: 'Allow', Action: 'kms:Decrypt', Resource: keyArn, Condition: boundToJob }]);
    for (const role of [functionRole('/api/toc'), functionRole('/api/job-status/*'), roleOf(taskStateFunction(synth.template)), executionRole]) {
      expect(JSON.stringify(roleStatements(role))).not.toContain('kms:');
    }
    // Whatever IAM policy anyone is given later, the key itself refuses Decrypt to all but the runner.
    const keyPolicy = key.properties.KeyPolicy as { Statement: Statement[] };
    expect(keyPolicy.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 'kms:Decrypt',
        Condition: { ArnNotEquals: { 'aws:PrincipalArn': { 'Fn::GetAtt': [taskRole, 'Arn'] } } },
      }),
    );
    // Nor can anyone re-encrypt a ciphertext under a key of their own, or grant the key's use.
    expect(keyPolicy.Statement).toContainEqual({
      Sid: 'NoOtherWayToThePlaintext',
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Action: ['kms:CreateGrant', 'kms:ReEncryptFrom', 'kms:ReEncryptTo'],
      Resource: '*',
    });
    // What stays open (the key's administration) is written beside the key, with its reason.
    expect(readFileSync(join(REPO_ROOT, 'infra/lib/qa-api/runner.ts'), 'utf8')).toMatch(/Residual, written down: the key's administration \(kms:PutKeyPolicy/);
  });

  it("gives the task's own role nothing but the decryption of what its run was handed", () => {
    // A course that breaks out of the browser holds the task's credentials: they must reach no job
    // and no report. Everything else goes through the session of the job role the run was handed.
    expect(statementsOf(synth.template, taskRole).map(actionsOf)).toEqual([['kms:Decrypt']]);
  });

  it('lets a run touch only its own job, its own report, the report it compares with, its owner’s history and its course’s cached verdicts, through a session tagged by run-tests', () => {
    const jobRole = only(synth.template, 'AWS::IAM::Role', { Description: Match.stringLikeRegexp('what one run may touch') });
    const starter = roleOf(routeFunction(synth.template, '/api/run-tests'));
    // Only run-tests may take a session, only with the job's tags, and for an hour at most.
    expect(jobRole.properties.MaxSessionDuration).toBe(3600);
    expect((jobRole.properties.AssumeRolePolicyDocument as { Statement: Statement[] }).Statement).toEqual([
      {
        Effect: 'Allow',
        Principal: { AWS: { 'Fn::GetAtt': [starter, 'Arn'] } },
        Action: ['sts:AssumeRole', 'sts:TagSession'],
        Condition: {
          'ForAllValues:StringEquals': { 'aws:TagKeys': ['ctpo-job', 'ctpo-owner', 'ctpo-report', 'ctpo-baseline', 'ctpo-course'] },
          StringLike: { 'aws:RequestTag/ctpo-job': '?*', 'aws:RequestTag/ctpo-owner': '?*', 'aws:RequestTag/ctpo-report': '?*', 'aws:RequestTag/ctpo-course': '?*' },
        },
      },
    ]);
    const arnOf = (found: { id: string }) => ({ 'Fn::GetAtt': [found.id, 'Arn'] });
    const bucket = `{${reportsBucket(synth.template).id}.Arn}`;
    const statements = statementsOf(synth.template, jobRole.id).map((statement) => ({ ...statement, Resource: render(statement.Resource) }));
    expect(statements).toEqual([
      {
        Sid: 'ItsOwnJob',
        Effect: 'Allow',
        Action: 'dynamodb:GetItem',
        Resource: render(arnOf(jobsTable(synth.template))),
        Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['${aws:PrincipalTag/ctpo-job}'] } },
      },
      {
        Sid: 'ItsOwnJobsProgressNotItsOwner',
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: render(arnOf(jobsTable(synth.template))),
        Condition: {
          'ForAllValues:StringEquals': {
            'dynamodb:LeadingKeys': ['${aws:PrincipalTag/ctpo-job}'],
            'dynamodb:Attributes': ['id', 'status', 'statusRank', 'updatedAt', 'startedAt', 'finishedAt', 'progress', 'reason', 'courseName', 'summary'],
          },
        },
      },
      {
        Sid: 'ItsOwnersDismissals',
        Effect: 'Allow',
        Action: 'dynamodb:Query',
        Resource: render(arnOf(dismissalsTable(synth.template))),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['["${aws:PrincipalTag/ctpo-owner}",*'] } },
      },
      {
        Sid: 'ItsOwnersProtocols',
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:Query'],
        Resource: render(arnOf(protocolsTable(synth.template))),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['["protocols","${aws:PrincipalTag/ctpo-owner}"]', '["answers","${aws:PrincipalTag/ctpo-owner}",*'] } },
      },
      { Sid: 'ItsOwnReport', Effect: 'Allow', Action: ['s3:DeleteObject', 's3:PutObject'], Resource: `${bucket}/reports/\${aws:PrincipalTag/ctpo-report}.*` },
      { Sid: 'ThePreviousReport', Effect: 'Allow', Action: 's3:GetObject', Resource: `${bucket}/reports/\${aws:PrincipalTag/ctpo-baseline}.json` },
      {
        Sid: 'ItsCoursesVerdicts',
        Effect: 'Allow',
        Action: ['dynamodb:BatchWriteItem', 'dynamodb:Query'],
        Resource: render(arnOf(verdictsTable(synth.template))),
        Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['${aws:PrincipalTag/ctpo-course}'] } },
      },
      { Sid: 'ItsCoursesVerdictValues', Effect: 'Allow', Action: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'], Resource: `${bucket}/verdicts/\${aws:PrincipalTag/ctpo-course}/*` },
    ]);
    // The owner attribute is never among what an update may name.
    expect(JSON.stringify(statements[1]!.Condition)).not.toMatch(/"owner"|"filename"|"runnerRef"/);
  });

  it('starts runs in public subnets without a NAT gateway, behind a security group that admits nothing', () => {
    synth.template.resourceCountIs('AWS::EC2::NatGateway', 0);
    // The group run-tests starts each task in.
    const groupId = referenceOf(environmentOf(routeFunction(synth.template, '/api/run-tests')).CTPO_SECURITY_GROUPS);
    const group = synth.template.findResources('AWS::EC2::SecurityGroup')[groupId]!.Properties as Record<string, unknown>;
    expect(group.SecurityGroupIngress).toBeUndefined();
    synth.template.resourceCountIs('AWS::EC2::SecurityGroupIngress', 0);
  });
});
