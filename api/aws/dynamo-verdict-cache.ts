// The verdict cache on AWS (api/engine/verdict-cache.ts): one DynamoDB table per deployment, a
// partition per course (site and org unit) and an entry per item or link, each with its digest, when
// it was checked, and a time to live DynamoDB deletes it by. A value small enough is kept in its
// entry; a larger one goes to the reports bucket under `verdicts/`, named by the entry and the
// value's own hash so that an entry never reads another run's value. The caps per course (items and
// links apart) are kept on save, oldest first. The number of courses is bounded by the entries' time
// to live alone: a run's session may reach only its own course's partition and values (the job role,
// infra/lib/qa-api/runner.ts), so no run can drop another course, and none should be able to. Only
// digests, findings and link answers are kept.
import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  EXPIRY_MS,
  MAX_ITEMS_PER_COURSE,
  MAX_LINKS_PER_COURSE,
  MAX_VALUE_BYTES,
  emptyCourseVerdicts,
  type VerdictCache,
  type VerdictCacheScope,
} from '../engine/verdict-cache.ts';
import { backoffMs, sleep } from '../net/retry.ts';

/** The table's keys and time to live, named once for the stack (infra/lib/qa-api/storage.ts). */
export const VERDICT_PARTITION_KEY = 'course';
export const VERDICT_SORT_KEY = 'key';
export const VERDICT_EXPIRES_AT = 'expiresAt';
/** Where values too large for their entry go in the reports bucket; the runner may write only here and under reports/. */
export const VERDICTS_PREFIX = 'verdicts/';
/**
 * A value (JSON) up to this many bytes is kept in its entry; a larger one in S3. DynamoDB items are
 * at most 400 KB; at 64 KiB a page of a course's entries (1 MB a Query) still holds 15 of the
 * largest, and a batch of 25 stays far below the 16 MB a BatchWriteItem takes.
 */
export const INLINE_VALUE_BYTES = 64 * 1024;

/** DynamoDB takes at most 25 writes in one BatchWriteItem. */
const BATCH_SIZE = 25;
/** Tries of one batch's unprocessed writes (throttling) before the save gives up. */
const BATCH_ATTEMPTS = 8;
const BATCH_BACKOFF_MS = 50;
/** S3 reads of large values at once while loading a course. */
const S3_READS_AT_ONCE = 8;
/** Batches written at once: a course of 8 000 links is 320 batches. */
const BATCHES_AT_ONCE = 4;
/**
 * An entry the run hands back unchanged (a reused verdict, a young link) is written again only when
 * it was last written this long ago: enough to keep it from expiring, without rewriting a whole
 * course on every run of a day.
 */
export const REWRITE_AFTER_MS = 24 * 60 * 60 * 1000;

type Kind = 'item' | 'link';

export interface DynamoVerdictCacheOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  s3: S3Client;
  bucket: string;
  now?: () => Date;
  /** The entries kept per course, each kind apart; the port's caps by default. */
  limits?: Partial<VerdictCacheLimits>;
  /** Base of the backoff between tries of unprocessed writes (default 50 ms). */
  retryBaseMs?: number;
}

export interface VerdictCacheLimits {
  itemsPerCourse: number;
  linksPerCourse: number;
  valueBytes: number;
  inlineBytes: number;
}

const DEFAULT_LIMITS: VerdictCacheLimits = {
  itemsPerCourse: MAX_ITEMS_PER_COURSE,
  linksPerCourse: MAX_LINKS_PER_COURSE,
  valueBytes: MAX_VALUE_BYTES,
  inlineBytes: INLINE_VALUE_BYTES,
};

/**
 * The partition of one course, `<site origin>/<org unit>`: an origin holds no path, so the first `/`
 * after its host ends it. The job session carries it as a tag (api/aws/job-session.ts) and the job
 * role's policy names it as a partition key and an S3 prefix, so it must be a tag value: an origin
 * (punycode host, scheme, port) and a number are.
 */
export function verdictPartition(scope: VerdictCacheScope): string {
  if (!Number.isSafeInteger(scope.orgUnitId) || scope.orgUnitId < 0) throw new Error('An org unit is a whole number.');
  return `${new URL(scope.site).origin}/${scope.orgUnitId}`;
}

/** Where a course's values too large for their entry go: the policy allows a run only its own. */
export function verdictObjectsPrefix(partition: string): string {
  return `${VERDICTS_PREFIX}${partition}/`;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The sort key of an entry: the kind and a hash of the item's key or the link's address, which may
 * be longer than the 1 KB a sort key may hold. The key itself is kept in `name`.
 */
function sortKey(kind: Kind, name: string): string {
  return `${kind}#${sha256(name)}`;
}

/** An entry as the table holds it. */
interface Entry {
  course: string;
  key: string;
  kind: Kind;
  name: string;
  digest?: string;
  checkedAt: string;
  writtenAt: string;
  expiresAt: number;
  /** The value's JSON, when it is kept in the entry. */
  json?: string;
  /** The value's object in the reports bucket, when it is not. */
  object?: string;
}

const isEntry = (item: Record<string, unknown>): item is Entry & Record<string, unknown> =>
  (item.kind === 'item' || item.kind === 'link') && typeof item.name === 'string' && typeof item.checkedAt === 'string'
  && typeof item.writtenAt === 'string' && typeof item.expiresAt === 'number' && (typeof item.json === 'string' || typeof item.object === 'string');

const isNoSuchKey = (error: unknown): boolean => error instanceof NoSuchKey || (error instanceof Error && error.name === 'NoSuchKey');

/** Oldest first: the entry written longest ago, then checked longest ago. */
const byAge = (a: { writtenAt: string; checkedAt: string; key: string }, b: { writtenAt: string; checkedAt: string; key: string }): number =>
  a.writtenAt.localeCompare(b.writtenAt) || a.checkedAt.localeCompare(b.checkedAt) || a.key.localeCompare(b.key);

export function createDynamoVerdictCache(options: DynamoVerdictCacheOptions): VerdictCache {
  const { client, tableName, s3, bucket } = options;
  const now = options.now ?? (() => new Date());
  const limits = { ...DEFAULT_LIMITS, ...options.limits };

  /** Every entry of a partition, page by page, read consistently (a save reads what it replaces). */
  async function partitionEntries(course: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: '#course = :course',
          ExpressionAttributeNames: { '#course': VERDICT_PARTITION_KEY },
          ExpressionAttributeValues: { ':course': course },
          ExclusiveStartKey: startKey,
          ConsistentRead: true,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined);
    return items;
  }

  /** Writes (puts and deletes) in batches of 25, sending again what DynamoDB left unprocessed. */
  async function batchWrite(requests: Record<string, unknown>[]): Promise<void> {
    const batches: Record<string, unknown>[][] = [];
    for (let start = 0; start < requests.length; start += BATCH_SIZE) batches.push(requests.slice(start, start + BATCH_SIZE));
    const writeBatch = async (batch: Record<string, unknown>[]): Promise<void> => {
      let pending = batch;
      for (let attempt = 1; pending.length > 0; attempt++) {
        if (attempt > BATCH_ATTEMPTS) throw new Error(`DynamoDB left ${pending.length} verdict cache writes unprocessed after ${BATCH_ATTEMPTS} tries.`);
        if (attempt > 1) await sleep(backoffMs(attempt - 1, options.retryBaseMs ?? BATCH_BACKOFF_MS));
        const answer = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
        pending = (answer.UnprocessedItems?.[tableName] ?? []) as Record<string, unknown>[];
      }
    };
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < batches.length) await writeBatch(batches[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(BATCHES_AT_ONCE, batches.length) }, worker));
  }

  const deleteRequest = (course: string, key: string) => ({ DeleteRequest: { Key: { [VERDICT_PARTITION_KEY]: course, [VERDICT_SORT_KEY]: key } } });

  /** Deletes objects no entry names any more; one already gone is no fault. */
  async function deleteObjects(keys: Iterable<string>): Promise<void> {
    for (const key of keys) {
      try {
        await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (!isNoSuchKey(error)) throw error;
      }
    }
  }

  /** The value of an entry; undefined when its object is gone (the item is then checked again). */
  async function valueOf(entry: Entry): Promise<{ value: unknown } | undefined> {
    if (entry.json !== undefined) return { value: JSON.parse(entry.json) as unknown };
    try {
      const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: entry.object }));
      const text = await answer.Body?.transformToString('utf-8');
      return text === undefined ? undefined : { value: JSON.parse(text) as unknown };
    } catch (error) {
      if (isNoSuchKey(error)) return undefined;
      throw error;
    }
  }

  return {
    async load(scope) {
      const verdicts = emptyCourseVerdicts();
      const nowSeconds = Math.floor(now().getTime() / 1000);
      // DynamoDB deletes an expired entry within days, not at once: it is left out here meanwhile.
      const entries = (await partitionEntries(verdictPartition(scope))).filter(isEntry).filter((entry) => entry.expiresAt > nowSeconds);
      let next = 0;
      const readNext = async (): Promise<void> => {
        while (next < entries.length) {
          const entry = entries[next++]!;
          const read = await valueOf(entry);
          if (read === undefined) continue;
          if (entry.kind === 'item' && entry.digest !== undefined) verdicts.items.set(entry.name, { digest: entry.digest, checkedAt: entry.checkedAt, value: read.value });
          else if (entry.kind === 'link') verdicts.links.set(entry.name, { checkedAt: entry.checkedAt, value: read.value });
        }
      };
      await Promise.all(Array.from({ length: Math.min(S3_READS_AT_ONCE, entries.length) }, readNext));
      return verdicts;
    },

    async save(scope, checked) {
      const course = verdictPartition(scope);
      const at = now();
      const writtenAt = at.toISOString();
      const expiresAt = Math.floor((at.getTime() + EXPIRY_MS) / 1000);
      const nowSeconds = Math.floor(at.getTime() / 1000);

      const existing = new Map<string, Entry>();
      const expired: Entry[] = [];
      for (const item of await partitionEntries(course)) {
        if (!isEntry(item)) continue;
        if (item.expiresAt > nowSeconds) existing.set(item.key, item);
        else expired.push(item);
      }

      // What this run checked, as entries; a value over the byte cap is not kept (checked again next run).
      const fresh = new Map<string, Entry & { body?: string }>();
      const add = (kind: Kind, name: string, checkedAt: string, value: unknown, digest?: string): void => {
        const json = JSON.stringify(value) ?? 'null';
        const bytes = Buffer.byteLength(json, 'utf8');
        if (bytes > limits.valueBytes) return;
        const key = sortKey(kind, name);
        const entry: Entry & { body?: string } = { course, key, kind, name, checkedAt, writtenAt, expiresAt, ...(digest === undefined ? {} : { digest }) };
        if (bytes <= limits.inlineBytes) entry.json = json;
        else {
          entry.object = `${verdictObjectsPrefix(course)}${key.replace('#', '-')}-${sha256(json)}.json`;
          entry.body = json;
        }
        const before = existing.get(key);
        const unchanged = before !== undefined && before.digest === entry.digest && before.checkedAt === entry.checkedAt
          && (entry.json === undefined ? before.object === entry.object : before.json === entry.json);
        if (unchanged && at.getTime() - Date.parse(before.writtenAt) < REWRITE_AFTER_MS) return;
        fresh.set(key, entry);
      };
      for (const [name, verdict] of checked.items) add('item', name, verdict.checkedAt, verdict.value, verdict.digest);
      for (const [name, link] of checked.links) add('link', name, link.checkedAt, link.value);

      // The caps, oldest first, over what the course would hold after this save.
      const kept = new Map<string, Entry & { body?: string }>([...existing, ...fresh]);
      const dropped: Entry[] = [];
      for (const [kind, cap] of [['item', limits.itemsPerCourse], ['link', limits.linksPerCourse]] as const) {
        const ofKind = [...kept.values()].filter((entry) => entry.kind === kind).sort(byAge);
        for (const entry of ofKind.slice(0, Math.max(0, ofKind.length - cap))) {
          kept.delete(entry.key);
          if (existing.has(entry.key)) dropped.push(existing.get(entry.key)!);
        }
      }
      const written = [...fresh.values()].filter((entry) => kept.get(entry.key) === entry);

      // Objects first: an entry never names an object that is not there yet.
      for (const entry of written) {
        if (entry.body === undefined) continue;
        await s3.send(new PutObjectCommand({ Bucket: bucket, Key: entry.object, Body: entry.body, ContentType: 'application/json; charset=utf-8' }));
      }
      await batchWrite([
        ...written.map(({ body: _body, ...entry }) => ({ PutRequest: { Item: entry } })),
        ...[...dropped, ...expired].map((entry) => deleteRequest(course, entry.key)),
      ]);
      // Objects no entry names any more: those of entries dropped or expired, and those replaced.
      const stale = new Set<string>();
      for (const entry of [...dropped, ...expired]) if (entry.object !== undefined) stale.add(entry.object);
      for (const entry of written) {
        const before = existing.get(entry.key)?.object;
        if (before !== undefined && before !== entry.object) stale.add(before);
      }
      await deleteObjects(stale);
    },
  };
}
