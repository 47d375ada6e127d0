// The job store on AWS: one DynamoDB item per job. The rules the SQLite store keeps in its schema
// (a terminal job never changes, a status never moves backwards) are kept here by condition
// expressions, so the API, the task and the task-state handler cannot race each other into breaking
// them. Items expire with the reports (DynamoDB TTL on `expiresAt`).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { JOB_STATUSES, TERMINAL_STATUSES } from '../http/contract.ts';
import type { JobStatus } from '../http/contract.ts';
import type { JobPatch, JobRecord, JobStore } from '../jobs/types.ts';

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

export interface DynamoJobStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Days an item is kept before DynamoDB deletes it. */
  retentionDays: number;
  now?: () => Date;
}

type JobItem = JobRecord & { statusRank: number; [EXPIRES_AT]: number };

const PATCH_FIELDS = ['status', 'startedAt', 'finishedAt', 'progress', 'reason', 'runnerRef', 'courseName', 'summary'] as const;

function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

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

  return {
    async create(job) {
      assertStatus(job.status);
      const expiresAt = Math.floor(Date.parse(job.createdAt) / 1000) + options.retentionDays * 86_400;
      // Optional fields left undefined are left out: DynamoDB has no "undefined".
      const defined = Object.fromEntries(Object.entries(job).filter(([, value]) => value !== undefined)) as JobRecord;
      const item: JobItem = { ...defined, statusRank: statusRank(job.status), [EXPIRES_AT]: expiresAt };
      await client.send(
        new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(id)' }),
      );
    },

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
