// A user's runs over time on AWS, from the jobs table's owner index (partition `owner`, sort
// `createdAt`, every attribute projected): their runs newest first, paged by the index's own keys,
// and the previous successful run of a course for a new report to compare itself with.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { JobHistory, JobRecord } from '../jobs/types.ts';
import { EXPIRES_AT } from './dynamo-job-store.ts';

/** Global secondary index: partition `owner`, sort `createdAt`, all attributes. */
export const OWNER_CREATED_INDEX = 'by-owner-created';

// The previous run of a course is looked for among this many of the owner's runs per request.
const PREVIOUS_PAGE = 50;

function recordOf(item: Record<string, unknown>): JobRecord {
  // Every job item was written by the job store, so it has the record's shape; its bookkeeping goes.
  const { statusRank: _rank, [EXPIRES_AT]: _expiresAt, ...record } = item;
  return record as unknown as JobRecord;
}

export function createDynamoJobHistory(options: { client: DynamoDBDocumentClient; tableName: string }): JobHistory {
  const { client, tableName } = options;
  return {
    async listByOwner(owner, page) {
      // One more than asked tells whether another page follows: DynamoDB's own LastEvaluatedKey
      // is also there when the last item happens to end the page.
      const answer = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: OWNER_CREATED_INDEX,
          KeyConditionExpression: '#owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':owner': owner },
          ScanIndexForward: false,
          Limit: page.limit + 1,
          // The cursor names a job of this owner only: the owner comes from the caller's token.
          ...(page.after === undefined ? {} : { ExclusiveStartKey: { id: page.after.id, owner, createdAt: page.after.createdAt } }),
        }),
      );
      const items = answer.Items ?? [];
      const jobs = items.slice(0, page.limit).map(recordOf);
      const last = jobs.at(-1);
      return items.length > page.limit && last !== undefined ? { jobs, next: { createdAt: last.createdAt, id: last.id } } : { jobs };
    },

    async previousSucceeded(job) {
      let startKey: Record<string, unknown> | undefined;
      do {
        const answer = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: OWNER_CREATED_INDEX,
            KeyConditionExpression: '#owner = :owner AND createdAt < :createdAt',
            FilterExpression: 'siteUrl = :siteUrl AND orgUnitId = :orgUnitId AND #status = :succeeded',
            ExpressionAttributeNames: { '#owner': 'owner', '#status': 'status' },
            ExpressionAttributeValues: { ':owner': job.owner, ':createdAt': job.createdAt, ':siteUrl': job.siteUrl, ':orgUnitId': job.orgUnitId, ':succeeded': 'SUCCEEDED' },
            ScanIndexForward: false,
            Limit: PREVIOUS_PAGE,
            ExclusiveStartKey: startKey,
          }),
        );
        const found = (answer.Items ?? []).find((item) => item.id !== job.id);
        if (found !== undefined) return recordOf(found);
        startKey = answer.LastEvaluatedKey;
      } while (startKey !== undefined);
      return undefined;
    },
  };
}
