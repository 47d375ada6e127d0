// Dismissed findings on AWS: a table of their own, one item per user, course and finding
// (partition `course`: the owner, site and org unit; sort `fingerprint`). No expiry: a dismissal
// stays until the user restores it.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CourseKey, DismissalStore } from '../jobs/types.ts';
import type { Dismissal } from '../report/model.ts';

/** The table's partition key of one user's course: unambiguous whatever the site's address holds. */
export function dismissalPartition(owner: string, course: CourseKey): string {
  return JSON.stringify([owner, course.siteUrl, course.orgUnitId]);
}

export function createDynamoDismissalStore(options: { client: DynamoDBDocumentClient; tableName: string }): DismissalStore {
  const { client, tableName } = options;
  return {
    async list(owner, course) {
      const dismissals: Dismissal[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const answer = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'course = :course',
            ExpressionAttributeValues: { ':course': dismissalPartition(owner, course) },
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of answer.Items ?? []) {
          const dismissal: Dismissal = { fingerprint: String(item.fingerprint), by: String(item.by), at: String(item.at) };
          if (typeof item.reason === 'string') dismissal.reason = item.reason;
          dismissals.push(dismissal);
        }
        startKey = answer.LastEvaluatedKey;
      } while (startKey !== undefined);
      return dismissals.sort((a, b) => a.at.localeCompare(b.at) || a.fingerprint.localeCompare(b.fingerprint));
    },

    async put(owner, course, dismissal) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: { course: dismissalPartition(owner, course), ...dismissal },
        }),
      );
    },

    async remove(owner, course, fingerprint) {
      const answer = await client.send(
        new DeleteCommand({ TableName: tableName, Key: { course: dismissalPartition(owner, course), fingerprint }, ReturnValues: 'ALL_OLD' }),
      );
      return answer.Attributes !== undefined;
    },
  };
}
