import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dismissalsTable, environmentOf, reportsBucket, routeFunction, runnerTask } from '../resources.ts';
import { synthesize } from '../support.ts';
import type { Synthesized } from '../support.ts';

describe('the QA API storage', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth.dispose());

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

  it('keeps dismissals in a table of their own, per user and course, deleted by DynamoDB once expired', () => {
    const table = dismissalsTable(synth.template);
    expect(table.properties).toMatchObject({
      KeySchema: [
        { AttributeName: 'course', KeyType: 'HASH' },
        { AttributeName: 'fingerprint', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    });
    expect(table.properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    expect(environmentOf(routeFunction(synth.template, '/api/dismissals')).CTPO_DISMISSALS_TABLE).toEqual({ Ref: table.id });
    const task = runnerTask(synth.template).properties as { ContainerDefinitions: { Environment: { Name: string }[] }[] };
    expect(task.ContainerDefinitions[0]!.Environment.map((variable) => variable.Name)).toContain('CTPO_DISMISSALS_TABLE');
  });

  it('keeps reports private and deletes them after the configured expiry', () => {
    expect(reportsBucket(synth.template).properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LifecycleConfiguration: { Rules: [expect.objectContaining({ ExpirationInDays: 30, Status: 'Enabled' })] },
    });
    const longer = synthesize({ reportExpiryDays: 90 });
    try {
      expect(reportsBucket(longer.template).properties).toMatchObject({
        LifecycleConfiguration: { Rules: [expect.objectContaining({ ExpirationInDays: 90 })] },
      });
    } finally {
      longer.dispose();
    }
  });
});
