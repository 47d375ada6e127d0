import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDynamoJobStore } from '../../../api/aws/dynamo-job-store.ts';
import type { JobRecord, JobStore } from '../../../api/jobs/types.ts';
import { fakeJobsTable } from './fake-dynamodb.ts';
import type { FakeTable } from './fake-dynamodb.ts';
import { aJob } from '../support/job-record.ts';

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

  it('refuses a second job with the same id and a status outside the lifecycle', async () => {
    await store.create(aJob('j1'));
    await expect(store.create(aJob('j1', { client: 'Other' }))).rejects.toThrow(/conditional/i);
    expect((await store.get('j1'))?.client).toBe('Acme College');
    await expect(store.create(aJob('bad', { status: 'DONE' as JobRecord['status'] }))).rejects.toThrow(/not a job status/);
    expect(await store.get('bad')).toBeUndefined();
  });

  it('applies a patch, bumps updatedAt and stamps finishedAt on a terminal status', async () => {
    await store.create(aJob('j1'));
    const running = await store.update('j1', { status: 'RUNNING', startedAt: '2026-05-01T10:00:04.000Z', progress: { done: 2, total: 9 } });
    expect(running).toMatchObject({ status: 'RUNNING', progress: { done: 2, total: 9 }, updatedAt: clock.toISOString() });
    clock = new Date('2026-05-01T10:03:00.000Z');
    const done = await store.update('j1', { status: 'SUCCEEDED' });
    expect(done).toMatchObject({ status: 'SUCCEEDED', finishedAt: '2026-05-01T10:03:00.000Z', startedAt: '2026-05-01T10:00:04.000Z' });
    expect(done).not.toHaveProperty('statusRank');
    expect(await store.update('nope', { status: 'RUNNING' })).toBeUndefined();
    expect(table.items.has('nope')).toBe(false);
  });

  it('never changes a terminal job again', async () => {
    await store.create(aJob('ok'));
    await store.update('ok', { status: 'SUCCEEDED' });
    const before = await store.get('ok');
    clock = new Date('2026-05-02T00:00:00.000Z');
    expect(await store.update('ok', { status: 'FAILED', reason: 'late', progress: { done: 1, total: 1 } })).toEqual(before);
    expect(await store.update('ok', { progress: { done: 1, total: 1 } })).toEqual(before);

    await store.create(aJob('failed', { status: 'FAILED', reason: 'first reason' }));
    await store.update('failed', { status: 'RUNNING', reason: 'second reason' });
    expect(await store.get('failed')).toMatchObject({ status: 'FAILED', reason: 'first reason' });
  });

  it('never moves a status backwards, and drops the whole late patch', async () => {
    await store.create(aJob('j1'));
    await store.update('j1', { status: 'RUNNING', progress: { done: 4, total: 9 } });
    await store.update('j1', { status: 'PENDING', progress: { done: 0, total: 9 } });
    expect(await store.get('j1')).toMatchObject({ status: 'RUNNING', progress: { done: 4, total: 9 } });
    await store.update('j1', { status: 'RUNNING', progress: { done: 5, total: 9 } });
    expect(await store.get('j1')).toMatchObject({ status: 'RUNNING', progress: { done: 5, total: 9 } });
    await store.update('j1', { status: 'DEPROVISIONING' });
    expect((await store.get('j1'))?.status).toBe('DEPROVISIONING');
  });

  it('writes the conditions that keep those rules on the table itself', async () => {
    await store.create(aJob('j1'));
    await store.update('j1', { status: 'RUNNING' });
    const [call] = table.mock.commandCalls(UpdateCommand);
    expect(call?.args[0].input.ConditionExpression).toBe(
      'attribute_exists(id) AND NOT (#status IN (:succeeded, :failed)) AND statusRank <= :rank',
    );
  });

  it('counts the active runs of one owner only', async () => {
    await store.create(aJob('a1'));
    await store.create(aJob('a2', { status: 'RUNNING' }));
    await store.create(aJob('a3', { status: 'SUCCEEDED' }));
    await store.create(aJob('a4'));
    await store.update('a4', { status: 'FAILED', reason: 'Sign-in failed.' });
    await store.create(aJob('b1', { owner: 'user-b', status: 'PENDING' }));
    expect(await store.countActive('user-a')).toBe(2);
    expect(await store.countActive('user-b')).toBe(1);
    expect(await store.countActive('user-c')).toBe(0);
  });

  it('lists jobs by status in creation order', async () => {
    await store.create(aJob('late', { status: 'RUNNING', createdAt: '2026-05-01T11:00:00.000Z' }));
    await store.create(aJob('early', { status: 'PENDING', createdAt: '2026-05-01T09:00:00.000Z' }));
    await store.create(aJob('done', { status: 'SUCCEEDED' }));
    const listed = await store.listByStatus(['PENDING', 'RUNNING']);
    expect(listed.map((job) => job.id)).toEqual(['early', 'late']);
    expect(await store.listByStatus([])).toEqual([]);
  });
});
