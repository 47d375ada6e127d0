// The verdict cache in the stack: its table, and what the runner task may do with it and with the
// verdicts/ prefix of the reports bucket.
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportsBucket, runnerTask, statementsOf, verdictsTable as verdictsTableOf } from '../resources.ts';
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

  const verdictsTable = () => verdictsTableOf(synth.template);
  const jobRole = () => only(synth.template, 'AWS::IAM::Role', { Description: Match.stringLikeRegexp('what one run may touch') });

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

  it('tells the runner task its table, and lets a run read and write only its own course’s partition and its values under verdicts/<course>/', () => {
    const table = verdictsTable();
    const task = runnerTask(synth.template);
    const container = (task.properties as { ContainerDefinitions: { Environment: { Name: string; Value: unknown }[] }[] }).ContainerDefinitions[0]!;
    const environment = Object.fromEntries(container.Environment.map((variable) => [variable.Name, variable.Value]));
    expect(environment.CTPO_VERDICTS_TABLE).toEqual({ Ref: table.id });
    // The link maximum age is left to its default of one day unless a deployment sets it.
    expect(environment).not.toHaveProperty('CTPO_LINK_MAX_AGE');

    // The task's own role only decrypts; the run reaches the cache through its job's session.
    expect(JSON.stringify(statementsOf(synth.template, referenceOf((task.properties as { TaskRoleArn: unknown }).TaskRoleArn)))).not.toContain(table.id);
    const statements = statementsOf(synth.template, jobRole().id);
    const tableArn = { 'Fn::GetAtt': [table.id, 'Arn'] };
    const onTable = statements.filter((statement) => JSON.stringify(statement.Resource).includes(table.id));
    expect(onTable).toEqual([
      {
        Sid: 'ItsCoursesVerdicts',
        Effect: 'Allow',
        Action: ['dynamodb:BatchWriteItem', 'dynamodb:Query'],
        Resource: tableArn,
        Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['${aws:PrincipalTag/ctpo-course}'] } },
      },
    ]);

    const bucketArn = { 'Fn::GetAtt': [reportsBucket(synth.template).id, 'Arn'] };
    const verdictObjects = { 'Fn::Join': ['', [bucketArn, '/verdicts/${aws:PrincipalTag/ctpo-course}/*']] };
    expect(statements).toContainEqual({ Sid: 'ItsCoursesVerdictValues', Effect: 'Allow', Action: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'], Resource: verdictObjects });
    // No statement on the verdicts prefix that a course tag does not narrow.
    expect(JSON.stringify(statements)).not.toContain('/verdicts/*');
    // Nothing of S3 on the whole bucket, nor on another prefix than the reports' and the verdicts', each narrowed by a session tag.
    for (const statement of statements.filter((each) => actionsOf(each).some((action) => action.startsWith('s3:')))) {
      expect(JSON.stringify(statement.Resource)).toMatch(/\/(reports|verdicts)\/\$\{aws:PrincipalTag\/ctpo-/);
    }
  });

  it('gives the table to nothing but the job role a run’s session is of', () => {
    const table = verdictsTable();
    const tasks = new Set([jobRole().id]);
    const policies = synth.template.findResources('AWS::IAM::Policy') as Record<string, { Properties: { Roles?: unknown[]; PolicyDocument: { Statement: Statement[] } } }>;
    for (const policy of Object.values(policies)) {
      if (!JSON.stringify(policy.Properties.PolicyDocument).includes(table.id)) continue;
      expect((policy.Properties.Roles ?? []).map(referenceOf).every((role) => tasks.has(role))).toBe(true);
    }
  });
});
