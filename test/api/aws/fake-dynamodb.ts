// A small in-memory stand-in for one DynamoDB table, behind the real SDK client (aws-sdk-client-mock
// intercepts `send`). It evaluates the expression grammar the job store writes (SET lists, AND-ed
// conditions of attribute_exists, attribute_not_exists, NOT (x IN (...)), x <= y, x < y), and
// refuses anything else, so a mistyped expression fails the test instead of passing silently.
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';

type Item = Record<string, unknown>;
type Names = Record<string, string> | undefined;
type Values = Record<string, unknown> | undefined;

function operand(token: string, item: Item | undefined, names: Names, values: Values): unknown {
  const text = token.trim();
  if (text.startsWith(':')) {
    if (values === undefined || !(text in values)) throw new Error(`unknown value ${text}`);
    return values[text];
  }
  const name = text.startsWith('#') ? names?.[text] : text;
  if (name === undefined) throw new Error(`unknown name ${text}`);
  return item?.[name];
}

function holds(condition: string, item: Item | undefined, names: Names, values: Values): boolean {
  return condition.split(/\s+AND\s+/).every((part) => {
    const clause = part.trim();
    let match = /^attribute_exists\((\S+)\)$/.exec(clause);
    if (match) return item !== undefined && operand(match[1]!, item, names, values) !== undefined;
    match = /^attribute_not_exists\((\S+)\)$/.exec(clause);
    if (match) return item === undefined || operand(match[1]!, item, names, values) === undefined;
    match = /^NOT \((\S+) IN \(([^)]*)\)\)$/.exec(clause);
    if (match) {
      const value = operand(match[1]!, item, names, values);
      return !match[2]!.split(',').some((candidate) => operand(candidate, item, names, values) === value);
    }
    match = /^(\S+) IN \(([^)]*)\)$/.exec(clause);
    if (match) {
      const value = operand(match[1]!, item, names, values);
      return match[2]!.split(',').some((candidate) => operand(candidate, item, names, values) === value);
    }
    match = /^(\S+) (<=|<|=) (\S+)$/.exec(clause);
    if (match) {
      const left = operand(match[1]!, item, names, values) as number;
      const right = operand(match[3]!, item, names, values) as number;
      return match[2] === '<=' ? left <= right : match[2] === '<' ? left < right : left === right;
    }
    throw new Error(`the fake does not understand "${clause}"`);
  });
}

export interface FakeTable {
  client: DynamoDBDocumentClient;
  items: Map<string, Item>;
  mock: ReturnType<typeof mockClient>;
  restore(): void;
}

/** A table keyed on `id`, with a `by-owner` index on (`owner`, `statusRank`). */
export function fakeJobsTable(tableName: string): FakeTable {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'ca-central-1' }));
  const mock = mockClient(client);
  const items = new Map<string, Item>();
  const copy = <T>(value: T): T => structuredClone(value);
  const failed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
  const checkTable = (name: string | undefined) => {
    if (name !== tableName) throw new Error(`unknown table ${String(name)}`);
  };

  mock.on(PutCommand).callsFake((input) => {
    checkTable(input.TableName);
    const current = items.get(input.Item.id);
    if (input.ConditionExpression && !holds(input.ConditionExpression, current, input.ExpressionAttributeNames, input.ExpressionAttributeValues)) {
      throw failed();
    }
    items.set(input.Item.id, copy(input.Item));
    return {};
  });
  mock.on(GetCommand).callsFake((input) => {
    checkTable(input.TableName);
    const item = items.get(input.Key.id);
    return item === undefined ? {} : { Item: copy(item) };
  });
  mock.on(UpdateCommand).callsFake((input) => {
    checkTable(input.TableName);
    const current = items.get(input.Key.id);
    if (input.ConditionExpression && !holds(input.ConditionExpression, current, input.ExpressionAttributeNames, input.ExpressionAttributeValues)) {
      throw failed();
    }
    const match = /^SET (.+)$/.exec(input.UpdateExpression);
    if (!match) throw new Error(`the fake does not understand "${input.UpdateExpression}"`);
    const next: Item = { ...(current ?? { id: input.Key.id }) };
    for (const assignment of match[1]!.split(',')) {
      const [left, right] = assignment.split('=').map((side: string) => side.trim());
      const name = left!.startsWith('#') ? input.ExpressionAttributeNames?.[left!] : left;
      if (name === undefined) throw new Error(`unknown name ${left}`);
      next[name] = copy(operand(right!, current, input.ExpressionAttributeNames, input.ExpressionAttributeValues));
    }
    items.set(input.Key.id, next);
    return { Attributes: copy(next) };
  });
  mock.on(QueryCommand).callsFake((input) => {
    checkTable(input.TableName);
    if (input.IndexName !== 'by-owner') throw new Error(`unknown index ${String(input.IndexName)}`);
    const matching = [...items.values()].filter((item) =>
      holds(input.KeyConditionExpression, item, input.ExpressionAttributeNames, input.ExpressionAttributeValues),
    );
    return input.Select === 'COUNT' ? { Count: matching.length } : { Items: matching.map(copy), Count: matching.length };
  });
  mock.on(ScanCommand).callsFake((input) => {
    checkTable(input.TableName);
    const matching = [...items.values()].filter(
      (item) => !input.FilterExpression || holds(input.FilterExpression, item, input.ExpressionAttributeNames, input.ExpressionAttributeValues),
    );
    return { Items: matching.map(copy), Count: matching.length };
  });

  return { client, items, mock, restore: () => mock.restore() };
}
