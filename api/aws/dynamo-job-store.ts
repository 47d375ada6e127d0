// The job store on AWS: one DynamoDB item per job. The rules the SQLite store keeps in its schema
// (a terminal job never changes, a status never moves backwards) are kept here by condition
// expressions, so the API, the task and the task-state handler cannot race each other into breaking
// them. Items expire with the reports (DynamoDB TTL on `expiresAt`).
//
// The caps on unfinished runs are kept by slot items in the same table (`run-slot#<scope>#<n>`, with
// no owner and no status, so no index and no job query ever sees them): a new job first takes one
// of its owner's slots and one of the deployment's, each with a conditional write, and only then is
// recorded. A slot is free when it is missing, when the job holding it has finished (a finished job
// never changes again), or when its job was never recorded (the request died in between) and the
// claim is older than a grace period. So slots free themselves, no write path has to give them back,
// and no count through an eventually consistent index is ever trusted. (A cap lowered while runs go
// on counts only the slots below it, so it holds fully once the runs started before have ended.)
import { randomInt } from 'node:crypto';
import type { BatchGetCommandOutput, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { JOB_STATUSES, TERMINAL_STATUSES, isTerminal } from '../jobs/job-status.ts';
import type { JobStatus } from '../jobs/job-status.ts';
import type { AdmitOutcome, JobPatch, JobRecord, JobStore, RunLimits } from '../jobs/types.ts';
import { isConditionFailure } from './dynamo-conditions.ts';

/** Global secondary index: partition `owner`, sort `statusRank`; the active runs of one user. */
export const OWNER_INDEX = 'by-owner';
/** The TTL attribute. */
export const EXPIRES_AT = 'expiresAt';

/** A status's place in the lifecycle; the terminal ones share the last place. */
export function statusRank(status: JobStatus): number {
  switch (status) {
    case 'PROVISIONING':
      return 0;
    case 'PENDING':
      return 1;
    case 'RUNNING':
      return 2;
    case 'DEPROVISIONING':
      return 3;
    case 'SUCCEEDED':
    case 'FAILED':
      return 4;
  }
}
const TERMINAL_RANK = 4;

/** Ids of the items that keep the run caps start with this; no job id does (job ids are UUIDs). */
export const RUN_SLOT_PREFIX = 'run-slot#';
/**
 * A slot whose job was never recorded is taken again after this long. It must exceed the longest a
 * request can take between claiming a slot and recording its job (the run-tests Lambda's timeout).
 */
export const UNRECORDED_SLOT_GRACE_MS = 2 * 60_000;
// A slot taken by someone else while this request tried: read the slots again, this many times.
const CLAIM_ROUNDS = 3;
// BatchGetItem takes at most this many keys at once.
const BATCH_GET_LIMIT = 100;

interface SlotItem {
  id: string;
  /** The job holding the slot. */
  holder: string;
  claimedAt: string;
  [EXPIRES_AT]: number;
}

function slotIdsOf(scope: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${RUN_SLOT_PREFIX}${scope}#${index}`);
}

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let index = out.length - 1; index > 0; index--) {
    const other = randomInt(index + 1);
    [out[index], out[other]] = [out[other]!, out[index]!];
  }
  return out;
}

export interface DynamoJobStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Days an item is kept before DynamoDB deletes it. */
  retentionDays: number;
  now?: () => Date;
}

type JobItem = JobRecord & { statusRank: number; [EXPIRES_AT]: number };

const PATCH_FIELDS = ['status', 'startedAt', 'finishedAt', 'progress', 'reason', 'runnerRef', 'courseName', 'summary'] as const;

function assertStatus(status: unknown): asserts status is JobStatus {
  if (!JOB_STATUSES.includes(status as JobStatus)) throw new Error(`"${String(status)}" is not a job status.`);
}

function toRecord(item: Record<string, unknown>): JobRecord {
  // Every item was written by create() or update() above, so it has the record's shape.
  const { statusRank: _rank, [EXPIRES_AT]: _expiresAt, ...record } = item as unknown as JobItem;
  return record;
}

export function createDynamoJobStore(options: DynamoJobStoreOptions): JobStore {
  const { client, tableName } = options;
  const now = options.now ?? (() => new Date());
  const terminalValues = { ':succeeded': TERMINAL_STATUSES[0], ':failed': TERMINAL_STATUSES[1] };

  const get = async (id: string): Promise<JobRecord | undefined> => {
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }));
    return Item === undefined ? undefined : toRecord(Item);
  };

  const create = async (job: JobRecord): Promise<void> => {
    assertStatus(job.status);
    const expiresAt = Math.floor(Date.parse(job.createdAt) / 1000) + options.retentionDays * 86_400;
    // Optional fields left undefined are left out: DynamoDB has no "undefined".
    const defined = Object.fromEntries(Object.entries(job).filter(([, value]) => value !== undefined)) as JobRecord;
    const item: JobItem = { ...defined, statusRank: statusRank(job.status), [EXPIRES_AT]: expiresAt };
    await client.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(id)' }));
  };

  /** Items by id, read consistently; missing ones are absent from the map. */
  const getMany = async (ids: readonly string[]): Promise<Map<string, Record<string, unknown>>> => {
    const found = new Map<string, Record<string, unknown>>();
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += BATCH_GET_LIMIT) {
      let keys: Record<string, unknown>[] | undefined = unique.slice(start, start + BATCH_GET_LIMIT).map((id) => ({ id }));
      // DynamoDB may leave some keys for later under load: ask again for those.
      for (let attempt = 0; keys !== undefined && keys.length > 0; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)));
        const answer: BatchGetCommandOutput = await client.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } } }));
        for (const item of answer.Responses?.[tableName] ?? []) found.set(String(item.id), item);
        keys = answer.UnprocessedKeys?.[tableName]?.Keys;
      }
    }
    return found;
  };

  const isFree = (slot: SlotItem | undefined, jobs: Map<string, Record<string, unknown>>, at: Date): boolean => {
    if (slot === undefined) return true;
    const holder = jobs.get(slot.holder);
    if (holder === undefined) return at.getTime() - Date.parse(slot.claimedAt) > UNRECORDED_SLOT_GRACE_MS;
    return isTerminal(holder.status as JobStatus);
  };

  /** Takes one free slot of `slotIds` for the job with a conditional write; undefined when none is free. */
  const claimSlot = async (slotIds: string[], jobId: string): Promise<string | undefined> => {
    for (let round = 0; round < CLAIM_ROUNDS; round++) {
      const slots = await getMany(slotIds);
      const holders = [...slots.values()].map((slot) => String(slot.holder));
      const jobs = await getMany(holders);
      const at = now();
      // In random order, so requests arriving together mostly try different slots.
      const free = shuffled(slotIds.filter((id) => isFree(slots.get(id) as SlotItem | undefined, jobs, at)));
      let contended = false;
      for (const id of free) {
        const current = slots.get(id) as SlotItem | undefined;
        const item: SlotItem = { id, holder: jobId, claimedAt: at.toISOString(), [EXPIRES_AT]: Math.floor(at.getTime() / 1000) + options.retentionDays * 86_400 };
        try {
          await client.send(
            new PutCommand(
              current === undefined
                ? { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(id)' }
                : {
                    // Taken over only from exactly the holder that was seen finished.
                    TableName: tableName,
                    Item: item,
                    ConditionExpression: '#holder = :holder AND #claimedAt = :claimedAt',
                    ExpressionAttributeNames: { '#holder': 'holder', '#claimedAt': 'claimedAt' },
                    ExpressionAttributeValues: { ':holder': current.holder, ':claimedAt': current.claimedAt },
                  },
            ),
          );
          return id;
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
          contended = true;
        }
      }
      if (!contended) return undefined;
    }
    return undefined;
  };

  /** Gives a slot back at once (a refused or failed request); a slot it no longer holds is left alone. */
  const releaseSlot = async (slotId: string, jobId: string): Promise<void> => {
    try {
      await client.send(
        new DeleteCommand({
          TableName: tableName,
          Key: { id: slotId },
          ConditionExpression: '#holder = :holder',
          ExpressionAttributeNames: { '#holder': 'holder' },
          ExpressionAttributeValues: { ':holder': jobId },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  };

  const createWithinLimits = async (job: JobRecord, limits: RunLimits): Promise<AdmitOutcome> => {
    assertStatus(job.status);
    const ownerSlot = await claimSlot(slotIdsOf(`owner#${encodeURIComponent(job.owner)}`, limits.perOwner), job.id);
    if (ownerSlot === undefined) return { admitted: false, limit: 'perOwner', cap: limits.perOwner };
    const overallSlot = await claimSlot(slotIdsOf('all', limits.overall), job.id).catch(async (error: unknown) => {
      await releaseSlot(ownerSlot, job.id);
      throw error;
    });
    if (overallSlot === undefined) {
      await releaseSlot(ownerSlot, job.id);
      return { admitted: false, limit: 'overall', cap: limits.overall };
    }
    try {
      await create(job);
    } catch (error) {
      await Promise.all([releaseSlot(ownerSlot, job.id), releaseSlot(overallSlot, job.id)]);
      throw error;
    }
    return { admitted: true };
  };

  return {
    create,
    createWithinLimits,
    get,

    async update(id, patch: JobPatch) {
      if (patch.status !== undefined) assertStatus(patch.status);
      const at = now().toISOString();
      const values: Record<string, unknown> = { ...terminalValues, ':updatedAt': at };
      const names: Record<string, string> = { '#status': 'status' };
      const sets = ['updatedAt = :updatedAt'];
      const fields: JobPatch = { ...patch };
      if (fields.status !== undefined && statusRank(fields.status) === TERMINAL_RANK && fields.finishedAt === undefined) {
        fields.finishedAt = at;
      }
      for (const field of PATCH_FIELDS) {
        if (fields[field] === undefined) continue;
        names[`#${field}`] = field;
        values[`:${field}`] = fields[field];
        sets.push(`#${field} = :${field}`);
      }
      let condition = 'attribute_exists(id) AND NOT (#status IN (:succeeded, :failed))';
      if (fields.status !== undefined) {
        values[':rank'] = statusRank(fields.status);
        sets.push('statusRank = :rank');
        // A late write from a slower path must not rewind the job: the whole patch is dropped.
        condition += ' AND statusRank <= :rank';
      }
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { id },
            UpdateExpression: `SET ${sets.join(', ')}`,
            ConditionExpression: condition,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ReturnValues: 'ALL_NEW',
          }),
        );
        return Attributes === undefined ? undefined : toRecord(Attributes);
      } catch (error) {
        // Unknown, terminal or ahead of the patch: the record as it stands (undefined if unknown).
        if (isConditionFailure(error)) return get(id);
        throw error;
      }
    },

    async countActive(owner) {
      let count = 0;
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: OWNER_INDEX,
            KeyConditionExpression: '#owner = :owner AND statusRank < :terminal',
            ExpressionAttributeNames: { '#owner': 'owner' },
            ExpressionAttributeValues: { ':owner': owner, ':terminal': TERMINAL_RANK },
            Select: 'COUNT',
            ExclusiveStartKey: startKey,
          }),
        );
        count += page.Count ?? 0;
        startKey = page.LastEvaluatedKey;
      } while (startKey !== undefined);
      return count;
    },

    async listByStatus(statuses) {
      if (statuses.length === 0) return [];
      statuses.forEach(assertStatus);
      // Only restart recovery asks this, rarely, of a table TTL keeps small: a scan beats an index
      // that every write would pay for.
      const values = Object.fromEntries(statuses.map((status, index) => [`:s${index}`, status]));
      const jobs: JobRecord[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new ScanCommand({
            TableName: tableName,
            FilterExpression: `#status IN (${Object.keys(values).join(', ')})`,
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: values,
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        );
        jobs.push(...(page.Items ?? []).map(toRecord));
        startKey = page.LastEvaluatedKey;
      } while (startKey !== undefined);
      return jobs.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    },
  };
}
