// Protocols, answers and sign-offs on AWS: one table (partition `scope`, sort `key`) with three
// kinds of item, each partition one user's: their protocols by client label, the answers of one
// course by manual item, their runs' sign-offs by job. No expiry: a protocol and its answers outlive
// the reports, and a sign-off is looked up only beside its run.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CourseKey, ProtocolStore, SignOff, StoredProtocol } from '../jobs/types.ts';
import { clientKeyOf } from '../protocol/client-key.ts';
import type { Protocol, ProtocolAnswer } from '../protocol/protocol-schema.ts';

/** The partition keys: unambiguous whatever an owner or a site's address holds. */
export const protocolScope = {
  protocols: (owner: string) => JSON.stringify(['protocols', owner]),
  answers: (owner: string, course: CourseKey) => JSON.stringify(['answers', owner, course.siteUrl, course.orgUnitId]),
  signOffs: (owner: string) => JSON.stringify(['sign-offs', owner]),
};

async function queryAll(client: DynamoDBDocumentClient, tableName: string, scope: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const answer = await client.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: '#scope = :scope', ExpressionAttributeNames: { '#scope': 'scope' }, ExpressionAttributeValues: { ':scope': scope }, ExclusiveStartKey: startKey }));
    items.push(...(answer.Items ?? []));
    startKey = answer.LastEvaluatedKey;
  } while (startKey !== undefined);
  return items;
}

const storedOf = (item: Record<string, unknown>): StoredProtocol => ({ client: String(item.client), protocol: JSON.parse(String(item.protocol)) as Protocol, by: String(item.by), at: String(item.at) });

export function createDynamoProtocolStore(options: { client: DynamoDBDocumentClient; tableName: string }): ProtocolStore {
  const { client, tableName } = options;
  return {
    async list(owner) {
      return (await queryAll(client, tableName, protocolScope.protocols(owner))).map(storedOf);
    },
    async get(owner, clientLabel) {
      const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: { scope: protocolScope.protocols(owner), key: clientKeyOf(clientLabel) } }));
      return Item === undefined ? undefined : storedOf(Item);
    },
    async put(owner, stored) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: { scope: protocolScope.protocols(owner), key: clientKeyOf(stored.client), client: stored.client.trim(), protocol: JSON.stringify(stored.protocol), by: stored.by, at: stored.at },
        }),
      );
    },
    async remove(owner, clientLabel) {
      const answer = await client.send(new DeleteCommand({ TableName: tableName, Key: { scope: protocolScope.protocols(owner), key: clientKeyOf(clientLabel) }, ReturnValues: 'ALL_OLD' }));
      return answer.Attributes !== undefined;
    },
    async answers(owner, course) {
      const items = await queryAll(client, tableName, protocolScope.answers(owner, course));
      return items.map(
        (item): ProtocolAnswer => ({
          itemId: String(item.key),
          itemKey: String(item.itemKey),
          status: item.status as ProtocolAnswer['status'],
          ...(typeof item.note === 'string' ? { note: item.note } : {}),
          by: String(item.by),
          at: String(item.at),
        }),
      );
    },
    async putAnswer(owner, course, answer, jobId) {
      const { itemId, ...rest } = answer;
      await client.send(new PutCommand({ TableName: tableName, Item: { scope: protocolScope.answers(owner, course), key: itemId, ...rest, jobId } }));
    },
    async signOff(owner, jobId, signOff) {
      await client.send(new PutCommand({ TableName: tableName, Item: { scope: protocolScope.signOffs(owner), key: jobId, by: signOff.by, at: signOff.at } }));
    },
    async signOffs(owner, jobIds) {
      const found = new Map<string, SignOff>();
      const unique = [...new Set(jobIds)];
      // BatchGet takes at most 100 keys a call.
      for (let start = 0; start < unique.length; start += 100) {
        let keys: Record<string, unknown>[] | undefined = unique.slice(start, start + 100).map((jobId) => ({ scope: protocolScope.signOffs(owner), key: jobId }));
        while (keys !== undefined && keys.length > 0) {
          const answer = await client.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys } } }));
          for (const item of answer.Responses?.[tableName] ?? []) found.set(String(item.key), { by: String(item.by), at: String(item.at) });
          keys = answer.UnprocessedKeys?.[tableName]?.Keys as Record<string, unknown>[] | undefined;
        }
      }
      return found;
    },
  };
}
