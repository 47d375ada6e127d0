// The DynamoDB side of the history against a real DynamoDB-compatible server (dynalite on
// loopback): the shared history contract (the jobs table's owner index sorted by creation, the
// dismissals table), then what is DynamoDB's own (the index's paging keys, the dismissals' time to live).
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoDismissalStore, dismissalPartition } from '../../../api/aws/dynamo-dismissal-store.ts';
import { createDynamoJobHistory } from '../../../api/aws/dynamo-job-history.ts';
import { createDynamoJobStore } from '../../../api/aws/dynamo-job-store.ts';
import { DISMISSAL_KEEP_DAYS } from '../../../api/jobs/types.ts';
import { aJob } from '../support/job-record.ts';
import { describeHistoryStoreContract } from '../support/history-store-contract.ts';
import { startDynalite } from '../support/dynalite.ts';
import type { Dynalite } from '../support/dynalite.ts';

let dynamo: Dynalite;

beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo?.close();
});

async function openHistory(now: () => Date = () => new Date(Date.UTC(2026, 5, 1))) {
  const jobsTable = await dynamo.createJobsTable();
  const dismissalsTable = await dynamo.createDismissalsTable();
  const store = createDynamoJobStore({ client: dynamo.client, tableName: jobsTable, retentionDays: 30 });
  const history = createDynamoJobHistory({ client: dynamo.client, tableName: jobsTable });
  return { jobsTable, dismissalsTable, jobs: { ...store, ...history }, dismissals: createDynamoDismissalStore({ client: dynamo.client, tableName: dismissalsTable, now }) };
}

describeHistoryStoreContract('DynamoDB', async (now) => {
  const { jobs, dismissals } = await openHistory(now);
  return { jobs, dismissals, close: () => undefined };
});

describe('the DynamoDB history', () => {
  it('lists records without the table’s bookkeeping', async () => {
    const { jobs } = await openHistory();
    await jobs.create(aJob('a1'));
    const [listed] = (await jobs.listByOwner('user-a', { limit: 5 })).jobs;
    expect(listed).toEqual(aJob('a1'));
    expect(listed).not.toHaveProperty('statusRank');
    expect(listed).not.toHaveProperty('expiresAt');
  });

  it('keeps a dismissal as one item per user, course and finding, which DynamoDB deletes once it has expired', async () => {
    const { dismissals, dismissalsTable } = await openHistory();
    const course = { siteUrl: 'https://acme.brightspace.com', orgUnitId: 6606 };
    await dismissals.put('user-a', course, { fingerprint: '0123456789abcdef0123', by: 'qa@example.com', at: '2026-05-01T10:00:00.000Z' });
    const { Item } = await dynamo.client.send(new GetCommand({ TableName: dismissalsTable, Key: { course: dismissalPartition('user-a', course), fingerprint: '0123456789abcdef0123' } }));
    expect(Item).toEqual({
      course: '["user-a","https://acme.brightspace.com",6606]', fingerprint: '0123456789abcdef0123', by: 'qa@example.com', at: '2026-05-01T10:00:00.000Z',
      expiresAt: Date.parse('2026-05-01T10:00:00.000Z') / 1000 + DISMISSAL_KEEP_DAYS * 86_400,
    });
    // An owner or a site holding the separator cannot reach into another course's partition.
    expect(dismissalPartition('a"b', course)).not.toBe(dismissalPartition('a', { ...course, siteUrl: `b",${course.siteUrl}` }));
  });
});
