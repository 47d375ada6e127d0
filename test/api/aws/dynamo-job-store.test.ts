import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDynamoJobStore } from '../../../api/aws/dynamo-job-store.ts';
import type { JobRecord, JobStore } from '../../../api/jobs/types.ts';
import { fakeJobsTable } from './fake-dynamodb.ts';
import type { FakeTable } from './fake-dynamodb.ts';
import { aJob } from '../support/job-record.ts';
import { describeJobStoreContract } from '../support/job-store-contract.ts';

describeJobStoreContract('DynamoDB', (now) => {
  const table = fakeJobsTable('jobs');
  return { store: createDynamoJobStore({ client: table.client, tableName: 'jobs', retentionDays: 30, now }), close: () => table.restore() };
});

describe('the DynamoDB job store', () => {
  let table: FakeTable;
  let store: JobStore;
  let clock: Date;

  beforeEach(() => {
    table = fakeJobsTable('jobs');
    clock = new Date('2026-05-01T10:00:05.000Z');
    store = createDynamoJobStore({ client: table.client, tableName: 'jobs', retentionDays: 30, now: () => clock });
  });
  afterEach(() => table.restore());

  it('keeps a job as written, reads it back, and sets it to expire with its report', async () => {
    await store.create(aJob('j1'));
    expect(await store.get('j1')).toEqual(aJob('j1'));
    expect(await store.get('nope')).toBeUndefined();
    const item = table.items.get('j1');
    expect(item?.expiresAt).toBe(Date.parse('2026-05-31T10:00:00.000Z') / 1000);
    expect(item?.statusRank).toBe(0);

    // DynamoDB has no "undefined": fields a caller left undefined are left out.
    await store.create({ ...aJob('j2'), startedAt: undefined, reason: undefined });
    expect(Object.keys(table.items.get('j2') ?? {})).not.toContain('startedAt');
    expect(await store.get('j2')).toEqual(aJob('j2'));
  });

  it('refuses a second job with the same id, and says why it refuses a status outside the lifecycle', async () => {
    await store.create(aJob('j1'));
    await expect(store.create(aJob('j1', { client: 'Other' }))).rejects.toThrow(/conditional/i);
    expect((await store.get('j1'))?.client).toBe('Acme College');
    await expect(store.create(aJob('bad', { status: 'DONE' as JobRecord['status'] }))).rejects.toThrow(/not a job status/);
  });

  it('keeps its bookkeeping out of the record and writes nothing for an unknown id', async () => {
    await store.create(aJob('j1'));
    expect(await store.update('j1', { status: 'SUCCEEDED' })).not.toHaveProperty('statusRank');
    await store.update('nope', { status: 'RUNNING' });
    expect(table.items.has('nope')).toBe(false);
  });

  it('writes the conditions that keep those rules on the table itself', async () => {
    await store.create(aJob('j1'));
    await store.update('j1', { status: 'RUNNING' });
    const [call] = table.mock.commandCalls(UpdateCommand);
    expect(call?.args[0].input.ConditionExpression).toBe(
      'attribute_exists(id) AND NOT (#status IN (:succeeded, :failed)) AND statusRank <= :rank',
    );
  });
});
