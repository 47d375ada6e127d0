// The DynamoDB job store against a real DynamoDB-compatible server (dynalite on loopback): the
// shared contract, then what is DynamoDB's own (expiry, duplicate ids, the slot items behind the caps).
import { DeleteCommand, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RUN_SLOT_PREFIX, UNRECORDED_SLOT_GRACE_MS, createDynamoJobStore } from '../../../api/aws/dynamo-job-store.ts';
import type { JobRecord, JobStore } from '../../../api/jobs/types.ts';
import { aJob } from '../support/job-record.ts';
import { describeJobStoreContract } from '../support/job-store-contract.ts';
import { startDynalite } from '../support/dynalite.ts';
import type { Dynalite } from '../support/dynalite.ts';

// A real DynamoDB-compatible server on a machine shared with other test runs.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let dynamo: Dynalite;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(() => dynamo.close());

describeJobStoreContract('DynamoDB', async (now) => {
  const tableName = await dynamo.createJobsTable();
  return { store: createDynamoJobStore({ client: dynamo.client, tableName, retentionDays: 30, now }), close: () => undefined };
});

describe('the DynamoDB job store', () => {
  let tableName: string;
  let store: JobStore;
  let clock: Date;

  const rawItem = async (id: string) => (await dynamo.client.send(new GetCommand({ TableName: tableName, Key: { id } }))).Item;
  const allItems = async () => (await dynamo.client.send(new ScanCommand({ TableName: tableName }))).Items ?? [];

  beforeEach(async () => {
    tableName = await dynamo.createJobsTable();
    clock = new Date('2026-05-01T10:00:05.000Z');
    store = createDynamoJobStore({ client: dynamo.client, tableName, retentionDays: 30, now: () => clock });
  });

  it('keeps a job as written, reads it back, and sets it to expire with its report', async () => {
    await store.create(aJob('j1'));
    expect(await store.get('j1')).toEqual(aJob('j1'));
    const item = await rawItem('j1');
    expect(item?.expiresAt).toBe(Date.parse('2026-05-31T10:00:00.000Z') / 1000);
    expect(item?.statusRank).toBe(0);

    // DynamoDB has no "undefined": fields a caller left undefined are left out.
    await store.create({ ...aJob('j2'), startedAt: undefined, reason: undefined });
    expect(Object.keys((await rawItem('j2')) ?? {})).not.toContain('startedAt');
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
    expect(await rawItem('nope')).toBeUndefined();
  });

  it('keeps the caps in slot items that no job query sees', async () => {
    const limits = { perOwner: 3, overall: 10 };
    await store.createWithinLimits(aJob('a1'), limits);
    await store.createWithinLimits(aJob('a2', { owner: 'user-b' }), limits);
    const slots = (await allItems()).filter((item) => String(item.id).startsWith(RUN_SLOT_PREFIX));
    // One of its owner's slots and one of the deployment's for each job.
    expect(slots).toHaveLength(4);
    expect(slots.every((slot) => slot.owner === undefined && slot.status === undefined && typeof slot.expiresAt === 'number')).toBe(true);
    expect(slots.map((slot) => slot.holder).sort()).toEqual(['a1', 'a1', 'a2', 'a2']);
    expect((await store.listByStatus(['PROVISIONING'])).map((job) => job.id)).toEqual(['a1', 'a2']);
    expect(await store.countActive('user-a')).toBe(1);
  });

  it('gives the slots back when the job cannot be recorded, and when the other cap refuses', async () => {
    await store.create(aJob('taken'));
    // The same id again: the record is refused, and so the slots it took are returned.
    await expect(store.createWithinLimits(aJob('taken'), { perOwner: 1, overall: 5 })).rejects.toThrow(/conditional/i);
    expect((await allItems()).filter((item) => String(item.id).startsWith(RUN_SLOT_PREFIX))).toEqual([]);

    await store.createWithinLimits(aJob('b1', { owner: 'user-b' }), { perOwner: 1, overall: 1 });
    expect(await store.createWithinLimits(aJob('a1'), { perOwner: 1, overall: 1 })).toMatchObject({ admitted: false, limit: 'overall' });
    const held = (await allItems()).filter((item) => String(item.id).startsWith(RUN_SLOT_PREFIX)).map((item) => item.holder);
    expect(held).toEqual(['b1', 'b1']);
  });

  it('frees a slot whose job was never recorded only after the grace period', async () => {
    const limits = { perOwner: 1, overall: 5 };
    // A request that took a slot and died before its job was recorded leaves the slot behind: here
    // the job is recorded, then its item removed, which leaves the table in that very state.
    await store.createWithinLimits(aJob('ghost'), limits);
    await dynamo.client.send(new DeleteCommand({ TableName: tableName, Key: { id: 'ghost' } }));

    expect(await store.createWithinLimits(aJob('next'), limits)).toMatchObject({ admitted: false, limit: 'perOwner' });
    clock = new Date(clock.getTime() + UNRECORDED_SLOT_GRACE_MS + 1000);
    expect(await store.createWithinLimits(aJob('next'), limits)).toEqual({ admitted: true });
  });
});
