// The verdict cache in the stack: its table, and what the runner task may do with it and with the
// verdicts/ prefix of the reports bucket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportsBucket, runnerTask, statementsOf } from '../resources.ts';
import type { Statement } from '../resources.ts';
import { only, referenceOf, synthesize } from '../support.ts';
import type { Synthesized } from '../support.ts';

const actionsOf = (statement: Statement): string[] => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]);

describe('the verdict cache on AWS', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth.dispose());

  const verdictsTable = () =>
    only(synth.template, 'AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: 'course', KeyType: 'HASH' },
        { AttributeName: 'key', KeyType: 'RANGE' },
      ],
    });

  it('keeps verdicts in a table of their own: per course and entry, paid per request, expiring by DynamoDB time to live, recoverable', () => {
    const table = verdictsTable();
    expect(table.properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      Replicas: [expect.objectContaining({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
    // Encrypted at rest as the other tables are: DynamoDB's own key, no key of ours to manage.
    expect(table.properties.SSESpecification).toBeUndefined();
  });

  it('tells the runner task its table, and lets it read and write only that table and only under verdicts/ in the reports bucket', () => {
    const table = verdictsTable();
    const task = runnerTask(synth.template);
    const container = (task.properties as { ContainerDefinitions: { Environment: { Name: string; Value: unknown }[] }[] }).ContainerDefinitions[0]!;
    const environment = Object.fromEntries(container.Environment.map((variable) => [variable.Name, variable.Value]));
    expect(environment.CTPO_VERDICTS_TABLE).toEqual({ Ref: table.id });
    // The link maximum age is left to its default of one day unless a deployment sets it.
    expect(environment).not.toHaveProperty('CTPO_LINK_MAX_AGE');

    const statements = statementsOf(synth.template, referenceOf((task.properties as { TaskRoleArn: unknown }).TaskRoleArn));
    const tableArn = { 'Fn::GetAtt': [table.id, 'Arn'] };
    const onTable = statements.filter((statement) => JSON.stringify(statement.Resource).includes(table.id));
    expect(onTable).toEqual([{ Effect: 'Allow', Action: ['dynamodb:BatchWriteItem', 'dynamodb:PutItem', 'dynamodb:Query'], Resource: tableArn }]);

    const bucketArn = { 'Fn::GetAtt': [reportsBucket(synth.template).id, 'Arn'] };
    const verdictObjects = { 'Fn::Join': ['', [bucketArn, '/verdicts/*']] };
    expect(statements).toContainEqual({ Sid: 'VerdictValues', Effect: 'Allow', Action: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'], Resource: verdictObjects });
    // Nothing of S3 on the whole bucket, nor on another prefix than the reports' and the verdicts'.
    for (const statement of statements.filter((each) => actionsOf(each).some((action) => action.startsWith('s3:')))) {
      expect(JSON.stringify(statement.Resource)).toMatch(/\/(reports|verdicts)\/\*/);
    }
  });

  it('gives the table to nothing but the runner task', () => {
    const table = verdictsTable();
    const tasks = new Set([referenceOf((runnerTask(synth.template).properties as { TaskRoleArn: unknown }).TaskRoleArn)]);
    const policies = synth.template.findResources('AWS::IAM::Policy') as Record<string, { Properties: { Roles?: unknown[]; PolicyDocument: { Statement: Statement[] } } }>;
    for (const policy of Object.values(policies)) {
      if (!JSON.stringify(policy.Properties.PolicyDocument).includes(table.id)) continue;
      expect((policy.Properties.Roles ?? []).map(referenceOf).every((role) => tasks.has(role))).toBe(true);
    }
  });
});
