// The per-caller limit of a route on AWS (`ConcurrencyLimit`), counted in DynamoDB: Lambda gives
// each request an instance of its own, so a count in memory would let one user hold every instance.
// One item per caller and kind of work, in the jobs table under a key no job id can take
// (`limit:<kind>:<sub>`), whose count goes up with a conditional update only below the maximum and
// down when the work ends. Each slot is a lease: a count last changed longer ago than the lease
// (an instance that died mid-work) starts again from nothing.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ConcurrencyLimit } from '../http/concurrency-limit.ts';
import { isConditionFailure } from './dynamo-conditions.ts';

/** The key prefix of limit items in the jobs table (a job id is a UUID or an ECS task ARN). */
export const LIMIT_KEY_PREFIX = 'limit:';

export function createDynamoConcurrencyLimit(options: {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** What the work is (`toc`): part of the key. */
  kind: string;
  max: number;
  /** Longer than the work can take (the function's timeout). */
  leaseMs: number;
  now?: () => Date;
}): ConcurrencyLimit {
  const { client, tableName, kind, max, leaseMs } = options;
  const now = () => (options.now?.() ?? new Date()).getTime();
  const keyOf = (caller: string) => ({ id: `${LIMIT_KEY_PREFIX}${kind}:${caller}` });
  const update = (caller: string, expression: string, condition: string, values: Record<string, unknown>) =>
    client.send(new UpdateCommand({
      TableName: tableName,
      Key: keyOf(caller),
      UpdateExpression: expression,
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: values,
    })).then(() => true, (error: unknown) => (isConditionFailure(error) ? false : Promise.reject(error)));

  return {
    max,
    async acquire(caller) {
      const at = now();
      const expires = Math.ceil((at + leaseMs) / 1000);
      const live = at / 1000;
      const taken =
        // Below the maximum, and the count still live.
        (await update(caller, 'SET #n = if_not_exists(#n, :zero) + :one, expiresAt = :expires', 'attribute_not_exists(#n) OR (#n < :max AND expiresAt > :live)', {
          ':zero': 0, ':one': 1, ':max': max, ':expires': expires, ':live': live,
        })) ||
        // A count whose lease has run out: its work is gone, so it starts again.
        (await update(caller, 'SET #n = :one, expiresAt = :expires', 'expiresAt <= :live', { ':one': 1, ':expires': expires, ':live': live }));
      if (!taken) return undefined;
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await update(caller, 'SET #n = #n - :one', '#n > :zero', { ':zero': 0, ':one': 1 });
      };
    },
  };
}
