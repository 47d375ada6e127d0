import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protocolsTable, credentialsKey, dismissalsTable, environmentOf, jobsTable, reportsBucket, roleOf, routeFunction, runnerTask, statementsOf, taskStateFunction } from '../resources.ts';
import type { Statement } from '../resources.ts';
import { REPO_ROOT, referenceOf, render, synthesize } from '../support.ts';
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

  it('lets the runner write its job and its reports and read the course history, nothing else', () => {
    // The runner writes its job and reports under reports/, and reads the course's history: the
    // previous report, the owner index, the dismissals, the protocols. Nothing else.
    const runner = statementsOf(synth.template, taskRole);
    // (The verdict cache's table and its verdicts/ prefix: test/infra/qa-api/verdict-cache.test.ts.)
    expect(runner.map(actionsOf)).toEqual([
      ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
      ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'],
      ['dynamodb:Query'],
      ['dynamodb:GetItem', 'dynamodb:Query'],
      ['dynamodb:BatchWriteItem', 'dynamodb:PutItem', 'dynamodb:Query'],
      ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'],
      ['kms:Decrypt'],
    ]);
    // ... and the client's protocol with the course's answers, to score the run by.
    expect(runner[3]!.Resource).toEqual({ 'Fn::GetAtt': [protocolsTable(synth.template).id, 'Arn'] });
    expect(render(runner[1]!.Resource)).toBe(`{${reportsBucket(synth.template).id}.Arn}/reports/*`);
    const history = runner[2]!.Resource as unknown[];
    expect(history).toHaveLength(2);
    expect(history).toContainEqual({ 'Fn::GetAtt': [dismissalsTable(synth.template).id, 'Arn'] });
    const ownerIndex = `{${jobsTable(synth.template).id}.Arn}/index/by-owner-created`;
    expect(history.map((resource) => render(resource)).filter((text) => text === ownerIndex)).toHaveLength(1);
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
