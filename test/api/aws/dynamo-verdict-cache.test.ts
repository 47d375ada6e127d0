// The verdict cache on AWS against a real DynamoDB-compatible server (dynalite on loopback), with S3
// faked at its client's boundary by an in-memory bucket: round trips, replacement, expiry, the caps,
// large values in the bucket, paging, and writes DynamoDB leaves unprocessed.
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { INLINE_VALUE_BYTES, REWRITE_AFTER_MS, VERDICTS_PREFIX, createDynamoVerdictCache, verdictPartition } from '../../../api/aws/dynamo-verdict-cache.ts';
import { EXPIRY_MS, MAX_VALUE_BYTES, type CourseVerdicts, type VerdictCacheScope } from '../../../api/engine/verdict-cache.ts';
import { startDynalite } from '../support/dynalite.ts';
import type { Dynalite } from '../support/dynalite.ts';

// A real DynamoDB-compatible server on a machine shared with other test runs.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

let dynamo: Dynalite;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(() => dynamo.close());

const COURSE: VerdictCacheScope = { site: 'https://school.brightspace.com', orgUnitId: 6606 };
const OTHER: VerdictCacheScope = { site: 'https://school.brightspace.com', orgUnitId: 7707 };

function verdicts(items: Record<string, { digest: string; checkedAt: string; value: unknown }> = {}, links: Record<string, { checkedAt: string; value: unknown }> = {}): CourseVerdicts {
  return { items: new Map(Object.entries(items)), links: new Map(Object.entries(links)) };
}

/** The DynamoDB client with its calls counted, and a first batch write answered only in part. */
function countingClient(client: DynamoDBDocumentClient, options: { leaveUnprocessed?: number } = {}) {
  const calls = { query: 0, batchWrite: 0 };
  let leave = options.leaveUnprocessed ?? 0;
  const wrapped = {
    send: async (command: unknown) => {
      if (command instanceof QueryCommand) calls.query++;
      if (command instanceof BatchWriteCommand) {
        calls.batchWrite++;
        const requests = command.input.RequestItems ?? {};
        const [table, writes] = Object.entries(requests)[0]!;
        if (leave > 0) {
          // DynamoDB under load: it carries out the first half and hands back the rest.
          const half = Math.floor(writes.length / 2);
          leave--;
          if (half > 0) await client.send(new BatchWriteCommand({ RequestItems: { [table]: writes.slice(0, half) } }));
          return { UnprocessedItems: { [table]: writes.slice(half) } };
        }
      }
      return client.send(command as never);
    },
  };
  return { client: wrapped as unknown as DynamoDBDocumentClient, calls };
}

describe('the DynamoDB verdict cache', () => {
  let tableName: string;
  let clock: Date;
  let s3: S3Client;
  let s3Mock: ReturnType<typeof mockClient>;
  let bucket: Map<string, string>;

  beforeEach(async () => {
    tableName = await dynamo.createVerdictsTable();
    clock = new Date('2026-11-01T10:00:00.000Z');
    bucket = new Map();
    s3 = new S3Client({ region: 'ca-central-1' });
    s3Mock = mockClient(s3);
    s3Mock.on(PutObjectCommand).callsFake((input: { Bucket: string; Key: string; Body: string }) => {
      expect(input.Bucket).toBe('reports-bucket');
      bucket.set(input.Key, input.Body);
      return {};
    });
    s3Mock.on(GetObjectCommand).callsFake((input: { Key: string }) => {
      const body = bucket.get(input.Key);
      if (body === undefined) throw new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} });
      return { Body: { transformToString: async () => body } };
    });
    s3Mock.on(DeleteObjectCommand).callsFake((input: { Key: string }) => {
      bucket.delete(input.Key);
      return {};
    });
  });
  afterEach(() => s3Mock.restore());

  const cacheWith = (options: { client?: DynamoDBDocumentClient; limits?: Parameters<typeof createDynamoVerdictCache>[0]['limits'] } = {}) =>
    createDynamoVerdictCache({ client: options.client ?? dynamo.client, tableName, s3, bucket: 'reports-bucket', now: () => clock, retryBaseMs: 1, ...(options.limits ? { limits: options.limits } : {}) });
  const entriesOf = async (scope: VerdictCacheScope) => (await dynamo.items(tableName)).filter((item) => item.course === verdictPartition(scope));

  it('gives back what it kept, per course, and nothing for a course it never saw', async () => {
    const cache = cacheWith();
    const findings = { findings: [{ check: 'content.alt-missing', element: '<img src="a.png">', fingerprint: 'a1b2' }], resources: ['https://school.brightspace.com/a.css'] };
    await cache.save(COURSE, verdicts(
      { 'topic:101': { digest: 'sha256:aa', checkedAt: '2026-11-01T09:59:00.000Z', value: findings }, 'document:7:page 2': { digest: 'sha256:bb', checkedAt: '2026-11-01T09:58:00.000Z', value: [] } },
      { 'https://example.org/a?b=1#c': { checkedAt: '2026-11-01T09:57:00.000Z', value: { status: 200, ok: true } } },
    ));
    const loaded = await cache.load(COURSE);
    expect(loaded.items).toEqual(new Map([
      ['topic:101', { digest: 'sha256:aa', checkedAt: '2026-11-01T09:59:00.000Z', value: findings }],
      ['document:7:page 2', { digest: 'sha256:bb', checkedAt: '2026-11-01T09:58:00.000Z', value: [] }],
    ]));
    expect(loaded.links).toEqual(new Map([['https://example.org/a?b=1#c', { checkedAt: '2026-11-01T09:57:00.000Z', value: { status: 200, ok: true } }]]));
    expect(await cache.load(OTHER)).toEqual(verdicts());
    // Nothing but the keys, the digest, the times and the value: no name of a field the engine did not hand over.
    for (const entry of await entriesOf(COURSE)) {
      expect(Object.keys(entry).sort()).toEqual(expect.arrayContaining(['checkedAt', 'course', 'expiresAt', 'key', 'kind', 'name', 'writtenAt']));
      expect(Object.keys(entry).every((name) => ['checkedAt', 'course', 'digest', 'expiresAt', 'json', 'key', 'kind', 'name', 'object', 'writtenAt'].includes(name))).toBe(true);
    }
  });

  it('replaces an item\'s or a link\'s earlier entry and keeps the others', async () => {
    const cache = cacheWith();
    await cache.save(COURSE, verdicts({ 'topic:1': { digest: 'd1', checkedAt: '2026-11-01T09:00:00.000Z', value: 'old' }, 'topic:2': { digest: 'd2', checkedAt: '2026-11-01T09:00:00.000Z', value: 'two' } }, { 'https://a.example/': { checkedAt: '2026-11-01T09:00:00.000Z', value: 404 } }));
    clock = new Date('2026-11-02T10:00:00.000Z');
    await cache.save(COURSE, verdicts({ 'topic:1': { digest: 'd1b', checkedAt: '2026-11-02T09:00:00.000Z', value: 'new' } }, { 'https://a.example/': { checkedAt: '2026-11-02T09:00:00.000Z', value: 200 } }));
    const loaded = await cache.load(COURSE);
    expect(loaded.items.get('topic:1')).toEqual({ digest: 'd1b', checkedAt: '2026-11-02T09:00:00.000Z', value: 'new' });
    expect(loaded.items.get('topic:2')).toEqual({ digest: 'd2', checkedAt: '2026-11-01T09:00:00.000Z', value: 'two' });
    expect(loaded.links.get('https://a.example/')).toEqual({ checkedAt: '2026-11-02T09:00:00.000Z', value: 200 });
    expect(await entriesOf(COURSE)).toHaveLength(3);
  });

  it('sets each entry to expire EXPIRY_DAYS after it was written, leaves expired ones out, and deletes them on the next save', async () => {
    const cache = cacheWith();
    await cache.save(COURSE, verdicts({ 'topic:1': { digest: 'd1', checkedAt: '2026-11-01T09:00:00.000Z', value: 1 } }));
    const expiresAt = Math.floor((clock.getTime() + EXPIRY_MS) / 1000);
    expect((await entriesOf(COURSE)).map((entry) => entry.expiresAt)).toEqual([expiresAt]);
    // Nothing but the course's own partition is written: no registry of courses.
    expect((await dynamo.items(tableName)).every((item) => item.course === verdictPartition(COURSE))).toBe(true);

    clock = new Date(clock.getTime() + EXPIRY_MS - 1000);
    expect((await cache.load(COURSE)).items.size).toBe(1);
    clock = new Date(clock.getTime() + 1000);
    // DynamoDB deletes by its time to live within days; until then the store itself leaves it out.
    expect((await cache.load(COURSE)).items.size).toBe(0);
    await cache.save(COURSE, verdicts({ 'topic:2': { digest: 'd2', checkedAt: clock.toISOString(), value: 2 } }));
    expect((await entriesOf(COURSE)).map((entry) => entry.name)).toEqual(['topic:2']);
  });

  it('writes an entry handed back unchanged again only once a day, so that it does not expire while it is reused', async () => {
    const { client, calls } = countingClient(dynamo.client);
    const cache = cacheWith({ client });
    const kept = verdicts({ 'topic:1': { digest: 'd1', checkedAt: '2026-11-01T09:00:00.000Z', value: { findings: [] } } }, { 'https://a.example/': { checkedAt: '2026-11-01T09:00:00.000Z', value: 200 } });
    await cache.save(COURSE, kept);
    const writtenAt = (await entriesOf(COURSE)).map((entry) => entry.writtenAt);
    expect(calls.batchWrite).toBe(1);

    clock = new Date(clock.getTime() + REWRITE_AFTER_MS - 1000);
    await cache.save(COURSE, kept);
    expect(calls.batchWrite).toBe(1);
    expect((await entriesOf(COURSE)).map((entry) => entry.writtenAt)).toEqual(writtenAt);

    clock = new Date(clock.getTime() + 1000);
    await cache.save(COURSE, kept);
    expect(calls.batchWrite).toBe(2);
    expect((await entriesOf(COURSE)).map((entry) => entry.expiresAt)).toEqual([0, 0].map(() => Math.floor((clock.getTime() + EXPIRY_MS) / 1000)));
    expect(await cache.load(COURSE)).toEqual(kept);
  });

  it('keeps at most its cap of items and of links per course, counted apart, dropping the oldest first', async () => {
    const cache = cacheWith({ limits: { itemsPerCourse: 3, linksPerCourse: 2 } });
    const at = (day: number) => `2026-11-0${day}T09:00:00.000Z`;
    await cache.save(COURSE, verdicts(
      { 'topic:1': { digest: 'a', checkedAt: at(1), value: 1 }, 'topic:2': { digest: 'a', checkedAt: at(1), value: 2 }, 'topic:3': { digest: 'a', checkedAt: at(1), value: 3 } },
      { 'https://a.example/1': { checkedAt: at(1), value: 1 }, 'https://a.example/2': { checkedAt: at(1), value: 2 } },
    ));
    clock = new Date('2026-11-02T10:00:00.000Z');
    await cache.save(COURSE, verdicts(
      { 'topic:4': { digest: 'b', checkedAt: at(2), value: 4 }, 'topic:2': { digest: 'b', checkedAt: at(2), value: 22 } },
      { 'https://a.example/3': { checkedAt: at(2), value: 3 } },
    ));
    const loaded = await cache.load(COURSE);
    // topic:2 was written again, so topic:1 and topic:3 were the oldest; one of them had to go.
    expect(loaded.items.size).toBe(3);
    expect(loaded.items.has('topic:2') && loaded.items.has('topic:4')).toBe(true);
    expect(loaded.links.size).toBe(2);
    expect(loaded.links.has('https://a.example/3')).toBe(true);
    expect(await entriesOf(COURSE)).toHaveLength(5);

    // A run that checked more than the cap keeps its newest checks.
    clock = new Date('2026-11-03T10:00:00.000Z');
    await cache.save(COURSE, verdicts(Object.fromEntries([5, 6, 7, 8].map((n) => [`topic:${n}`, { digest: 'c', checkedAt: `2026-11-03T09:0${n}:00.000Z`, value: n }]))));
    expect([...(await cache.load(COURSE)).items.keys()].sort()).toEqual(['topic:6', 'topic:7', 'topic:8']);
  });

  it('names a course by its site origin and org unit, a session tag value, and touches no other course when saving', async () => {
    expect(verdictPartition({ site: 'https://school.brightspace.com', orgUnitId: 6606 })).toBe('https://school.brightspace.com/6606');
    expect(verdictPartition({ site: 'http://127.0.0.1:8443', orgUnitId: 1 })).toBe('http://127.0.0.1:8443/1');
    // An international host is kept in its punycode form, as the engine's origin is.
    expect(verdictPartition({ site: 'https://école.example', orgUnitId: 7 })).toBe('https://xn--cole-9oa.example/7');
    expect(() => verdictPartition({ site: 'https://school.brightspace.com', orgUnitId: 1.5 })).toThrow();
    // Two courses of one site: saving either leaves the other whole (no cross-course cap).
    const cache = cacheWith();
    const big = 'x'.repeat(INLINE_VALUE_BYTES + 1);
    const scopes = [1, 2, 3].map((orgUnitId) => ({ site: 'https://school.brightspace.com', orgUnitId }));
    for (const [index, scope] of scopes.entries()) {
      clock = new Date(Date.UTC(2026, 10, 1 + index));
      await cache.save(scope, verdicts({ 'topic:1': { digest: 'd', checkedAt: clock.toISOString(), value: big } }));
    }
    for (const scope of scopes) expect((await cache.load(scope)).items.get('topic:1')?.value).toBe(big);
    expect([...bucket.keys()].map((key) => key.split('/').slice(0, 5).join('/')).sort()).toEqual(scopes.map((scope) => `${VERDICTS_PREFIX}${verdictPartition(scope)}`));
  });

  it('keeps a large value in the bucket under verdicts/, reads it back, deletes it when replaced, and keeps none over the byte cap', async () => {
    const cache = cacheWith();
    const large = { findings: 'y'.repeat(INLINE_VALUE_BYTES) };
    await cache.save(COURSE, verdicts({ 'topic:1': { digest: 'd1', checkedAt: '2026-11-01T09:00:00.000Z', value: large }, 'topic:2': { digest: 'd2', checkedAt: '2026-11-01T09:00:00.000Z', value: 'z'.repeat(MAX_VALUE_BYTES) } }));
    const [entry] = await entriesOf(COURSE);
    expect(entry).toMatchObject({ name: 'topic:1', object: expect.stringMatching(/^verdicts\/https:\/\/school\.brightspace\.com\/6606\/item-[0-9a-f]{64}-[0-9a-f]{64}\.json$/) });
    expect(entry).not.toHaveProperty('json');
    expect([...bucket.keys()]).toEqual([entry!.object]);
    expect([...bucket.keys()].every((key) => key.startsWith(VERDICTS_PREFIX))).toBe(true);
    expect(await entriesOf(COURSE)).toHaveLength(1);
    expect((await cache.load(COURSE)).items.get('topic:1')).toEqual({ digest: 'd1', checkedAt: '2026-11-01T09:00:00.000Z', value: large });

    // An object gone from the bucket (its lifecycle rule) is no verdict: the item is checked again.
    bucket.clear();
    expect((await cache.load(COURSE)).items.size).toBe(0);

    await cache.save(COURSE, verdicts({ 'topic:1': { digest: 'd3', checkedAt: '2026-11-01T09:00:00.000Z', value: large } }));
    expect(bucket.size).toBe(1);
    await cache.save(COURSE, verdicts({ 'topic:1': { digest: 'd4', checkedAt: '2026-11-01T09:30:00.000Z', value: 'small' } }));
    expect(bucket.size).toBe(0);
    expect((await cache.load(COURSE)).items.get('topic:1')).toEqual({ digest: 'd4', checkedAt: '2026-11-01T09:30:00.000Z', value: 'small' });
  });

  it('reads a course over several pages of a Query and writes it in batches, sending again what DynamoDB left unprocessed', async () => {
    const { client, calls } = countingClient(dynamo.client, { leaveUnprocessed: 3 });
    const cache = cacheWith({ client });
    // 60 entries of about 40 KB: 2.4 MB, more than a Query gives in one page (1 MB).
    const items = Object.fromEntries(Array.from({ length: 60 }, (_, n) => [`topic:${n}`, { digest: `d${n}`, checkedAt: '2026-11-01T09:00:00.000Z', value: `${n}:${'p'.repeat(40_000)}` }]));
    await cache.save(COURSE, verdicts(items));
    expect(calls.batchWrite).toBeGreaterThanOrEqual(3 + 3);
    const queriesBefore = calls.query;
    const loaded = await cache.load(COURSE);
    expect(calls.query - queriesBefore).toBeGreaterThan(1);
    expect(loaded.items.size).toBe(60);
    expect(loaded.items.get('topic:59')?.value).toBe(`59:${'p'.repeat(40_000)}`);
  });

  it('gives up, saying so, when DynamoDB keeps leaving writes unprocessed', async () => {
    const { client } = countingClient(dynamo.client, { leaveUnprocessed: 100 });
    const cache = cacheWith({ client });
    const items = Object.fromEntries(Array.from({ length: 4 }, (_, n) => [`topic:${n}`, { digest: 'd', checkedAt: '2026-11-01T09:00:00.000Z', value: n }]));
    await expect(cache.save(COURSE, verdicts(items))).rejects.toThrow(/unprocessed/);
  });
});
