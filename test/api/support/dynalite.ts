// A real DynamoDB-compatible server for the tests: dynalite, in memory, on a free loopback port,
// started once per test file. Each test makes its own tables, shaped as the stack makes them
// (infra/lib/qa-api/storage.ts): the jobs table with key `id`, the owner index on (`owner`, `statusRank`)
// and the history's index on (`owner`, `createdAt`); the dismissals table keyed (`course`, `fingerprint`);
// the verdict cache's keyed (`course`, `key`).
import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import { OWNER_CREATED_INDEX } from '../../../api/aws/dynamo-job-history.ts';
import { OWNER_INDEX } from '../../../api/aws/dynamo-job-store.ts';

export interface Dynalite {
  endpoint: string;
  client: DynamoDBDocumentClient;
  /** Creates an empty jobs table with a fresh name and returns the name. */
  createJobsTable(): Promise<string>;
  /** Creates an empty dismissals table with a fresh name and returns the name. */
  createDismissalsTable(): Promise<string>;
  /** The protocols table keyed (`scope`, `key`). */
  createProtocolsTable(): Promise<string>;
  /** The verdict cache's table keyed (`course`, `key`). */
  createVerdictsTable(): Promise<string>;
  /** Every item of a table as stored, slot items included. */
  items(tableName: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

let tables = 0;

export async function startDynalite(): Promise<Dynalite> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const raw = new DynamoDBClient({ endpoint, region: 'ca-central-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  const client = DynamoDBDocumentClient.from(raw);
  /** An empty on-demand table with a fresh name starting with `prefix`; returns the name. */
  const createTable = async (prefix: string, shape: Omit<CreateTableCommandInput, 'TableName' | 'BillingMode'>): Promise<string> => {
    const name = `${prefix}-${process.pid}-${++tables}`;
    await raw.send(new CreateTableCommand({ TableName: name, BillingMode: 'PAY_PER_REQUEST', ...shape }));
    // dynalite makes a table ACTIVE a moment after it answers CreateTable (a timer, then a write);
    // a request in between finds no table, as on DynamoDB. Wait as a deployment waits for its table.
    while ((await raw.send(new DescribeTableCommand({ TableName: name }))).Table?.TableStatus !== 'ACTIVE') {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return name;
  };
  return {
    endpoint,
    client,
    createJobsTable: () =>
      createTable('jobs', {
        AttributeDefinitions: [
          { AttributeName: 'id', AttributeType: 'S' },
          { AttributeName: 'owner', AttributeType: 'S' },
          { AttributeName: 'statusRank', AttributeType: 'N' },
          { AttributeName: 'createdAt', AttributeType: 'S' },
        ],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        GlobalSecondaryIndexes: [
          {
            IndexName: OWNER_INDEX,
            KeySchema: [
              { AttributeName: 'owner', KeyType: 'HASH' },
              { AttributeName: 'statusRank', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'KEYS_ONLY' },
          },
          {
            IndexName: OWNER_CREATED_INDEX,
            KeySchema: [
              { AttributeName: 'owner', KeyType: 'HASH' },
              { AttributeName: 'createdAt', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    createDismissalsTable: () =>
      createTable('dismissals', {
        AttributeDefinitions: [
          { AttributeName: 'course', AttributeType: 'S' },
          { AttributeName: 'fingerprint', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'course', KeyType: 'HASH' },
          { AttributeName: 'fingerprint', KeyType: 'RANGE' },
        ],
      }),
    createProtocolsTable: () =>
      createTable('protocols', {
        AttributeDefinitions: [
          { AttributeName: 'scope', AttributeType: 'S' },
          { AttributeName: 'key', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'scope', KeyType: 'HASH' },
          { AttributeName: 'key', KeyType: 'RANGE' },
        ],
      }),
    createVerdictsTable: () =>
      createTable('verdicts', {
        AttributeDefinitions: [
          { AttributeName: 'course', AttributeType: 'S' },
          { AttributeName: 'key', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'course', KeyType: 'HASH' },
          { AttributeName: 'key', KeyType: 'RANGE' },
        ],
      }),
    async items(tableName) {
      const items: Record<string, unknown>[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: startKey }));
        items.push(...(page.Items ?? []));
        startKey = page.LastEvaluatedKey;
      } while (startKey !== undefined);
      return items;
    },
    async close() {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
