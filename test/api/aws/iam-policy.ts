// A small IAM policy evaluator for the tests, and clients that check every request against it before
// it goes out: enough of IAM's rules to judge the job role's policy as the stack synthesizes it.
// Allow and Deny statements (an explicit Deny wins, nothing allowed is denied); actions with
// wildcards; resources with wildcards and `${aws:PrincipalTag/<tag>}` (a statement naming a tag the
// session lacks applies to nothing); conditions StringEquals, StringLike, their ForAllValues: and
// ForAnyValue: forms, and Null. DynamoDB's condition keys are read from the request itself, as
// DynamoDB hands them to IAM: dynamodb:LeadingKeys (the partition key's value), dynamodb:Attributes
// (every attribute the request names), dynamodb:ReturnValues and dynamodb:Select.
import type { DeleteObjectCommandInput, GetObjectCommandInput, PutObjectCommandInput } from '@aws-sdk/client-s3';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';

export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface AccessRequest {
  action: string;
  resource: string;
  /** Condition keys of the request; a key absent here is absent from the request. */
  context: Record<string, string[]>;
}

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** `*` any run of characters, `?` any one; everything else literal. */
function globMatches(pattern: string, value: string, ignoreCase = false): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, ignoreCase ? 'is' : 's').test(value);
}

/** Fills in the session's tags; undefined when a variable names a tag the session does not have. */
function substitute(text: string, tags: Record<string, string>): string | undefined {
  let missing = false;
  const filled = text.replace(/\$\{aws:PrincipalTag\/([^}]+)\}/g, (_, tag: string) => {
    const value = tags[tag];
    if (value === undefined) missing = true;
    return value ?? '';
  });
  return missing ? undefined : filled;
}

function conditionHolds(operator: string, key: string, expected: string[], context: Record<string, string[]>): boolean {
  const values = context[key];
  if (operator === 'Null') return expected.every((want) => (want === 'true') === (values === undefined));
  const [qualifier, base] = operator.includes(':') ? (operator.split(':') as [string, string]) : [undefined, operator];
  const matchOne = (value: string): boolean => {
    if (base === 'StringEquals') return expected.includes(value);
    if (base === 'StringLike') return expected.some((pattern) => globMatches(pattern, value));
    throw new Error(`The test's evaluator does not know the operator ${operator}.`);
  };
  if (qualifier === 'ForAllValues') return (values ?? []).every(matchOne);
  if (qualifier === 'ForAnyValue') return (values ?? []).some(matchOne);
  if (qualifier !== undefined) throw new Error(`The test's evaluator does not know the operator ${operator}.`);
  // A single-valued operator on a key the request lacks does not hold.
  return values !== undefined && values.length === 1 && matchOne(values[0]!);
}

function statementApplies(statement: PolicyStatement, request: AccessRequest, tags: Record<string, string>): boolean {
  if (!list(statement.Action).some((action) => globMatches(action, request.action, true))) return false;
  const resources = list(statement.Resource).map((resource) => substitute(resource, tags));
  if (!resources.some((resource) => resource !== undefined && globMatches(resource, request.resource))) return false;
  for (const [operator, keys] of Object.entries(statement.Condition ?? {})) {
    for (const [key, raw] of Object.entries(keys)) {
      const expected = list(raw).map((value) => substitute(value, tags));
      if (expected.some((value) => value === undefined)) return false;
      if (!conditionHolds(operator, key, expected as string[], request.context)) return false;
    }
  }
  return true;
}

/** IAM's verdict on one request by a session with these tags, under these identity statements. */
export function isAllowed(statements: readonly PolicyStatement[], tags: Record<string, string>, request: AccessRequest): boolean {
  const applying = statements.filter((statement) => statementApplies(statement, request, tags));
  return !applying.some((statement) => statement.Effect === 'Deny') && applying.some((statement) => statement.Effect === 'Allow');
}

export class AccessDenied extends Error {
  constructor(request: AccessRequest) {
    super(`not authorized to perform ${request.action} on ${request.resource} (${JSON.stringify(request.context)})`);
    this.name = 'AccessDeniedException';
  }
}

type AttributeValue = Record<string, unknown>;

/** A marshalled value as the string IAM compares (a string's or a number's text). */
const scalarOf = (value: AttributeValue | undefined): string | undefined => (value === undefined ? undefined : String(value.S ?? value.N ?? value.B));

// Words of DynamoDB's expression grammar that are not attribute names.
const GRAMMAR = new Set(['SET', 'REMOVE', 'ADD', 'DELETE', 'AND', 'OR', 'NOT', 'IN', 'BETWEEN', 'attribute_exists', 'attribute_not_exists', 'attribute_type', 'begins_with', 'contains', 'size', 'if_not_exists', 'list_append']);

/** Every attribute an expression names: `#placeholders` resolved, bare names as they are. */
function attributesIn(expression: string | undefined, names: Record<string, string>): string[] {
  if (expression === undefined) return [];
  // Values (`:v`) and string literals name no attribute.
  const tokens = expression.replace(/:[\w]+/g, ' ').match(/#?[A-Za-z_][\w]*/g) ?? [];
  return tokens.filter((token) => !GRAMMAR.has(token)).map((token) => (token.startsWith('#') ? (names[token] ?? token) : token));
}

/** The partition key value a key condition fixes (`<pk> = :v`). */
function partitionOf(expression: string, partitionKey: string, names: Record<string, string>, values: Record<string, AttributeValue>): string | undefined {
  for (const [, left, right] of expression.matchAll(/(#?[\w]+)\s*=\s*(:[\w]+)/g)) {
    const name = left!.startsWith('#') ? names[left!] : left;
    if (name === partitionKey) return scalarOf(values[right!]);
  }
  return undefined;
}

/** Where each table's and index's partition key is, and the ARN IAM knows it by. */
export interface TableShape {
  arn: string;
  partitionKey: string;
  sortKey?: string;
  indexes?: Record<string, string>;
}

/** The request a DynamoDB call makes of IAM, from the body the SDK sends. */
export function dynamoRequestOf(operation: string, body: Record<string, unknown>, tables: Record<string, TableShape>): AccessRequest {
  const table = tables[String(body.TableName)];
  if (table === undefined) throw new Error(`The test knows no table ${String(body.TableName)}.`);
  const names = (body.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (body.ExpressionAttributeValues ?? {}) as Record<string, AttributeValue>;
  const context: Record<string, string[]> = {};
  let resource = table.arn;
  let leading: string | undefined;
  const attributes = new Set<string>();
  const key = (body.Key ?? body.Item) as Record<string, AttributeValue> | undefined;
  if (key !== undefined) {
    leading = scalarOf(key[table.partitionKey]);
    for (const name of Object.keys(body.Key === undefined ? {} : key)) attributes.add(name);
  }
  if (operation === 'Query') {
    const index = body.IndexName === undefined ? undefined : String(body.IndexName);
    if (index !== undefined) resource = `${table.arn}/index/${index}`;
    leading = partitionOf(String(body.KeyConditionExpression), index === undefined ? table.partitionKey : table.indexes![index]!, names, values);
  }
  if (operation === 'PutItem') for (const name of Object.keys((body.Item ?? {}) as object)) attributes.add(name);
  for (const name of Object.keys((body.AttributeUpdates ?? {}) as object)) attributes.add(name);
  for (const expression of [body.UpdateExpression, body.ConditionExpression, body.ProjectionExpression, body.FilterExpression]) {
    for (const name of attributesIn(expression as string | undefined, names)) attributes.add(name);
  }
  if (leading !== undefined) context['dynamodb:LeadingKeys'] = [leading];
  if (attributes.size > 0) context['dynamodb:Attributes'] = [...attributes];
  if (typeof body.ReturnValues === 'string') context['dynamodb:ReturnValues'] = [body.ReturnValues];
  if (typeof body.Select === 'string') context['dynamodb:Select'] = [body.Select];
  return { action: `dynamodb:${operation}`, resource, context };
}

/**
 * The requests a BatchWriteItem makes of IAM: one per table, whose leading keys are every partition
 * key its puts and deletes name (with ForAllValues, as judging each write apart would), and whose
 * attributes are every attribute its puts write and its deletes' keys.
 */
export function batchWriteRequestsOf(body: Record<string, unknown>, tables: Record<string, TableShape>): AccessRequest[] {
  return Object.entries(body.RequestItems as Record<string, { PutRequest?: { Item: Record<string, AttributeValue> }; DeleteRequest?: { Key: Record<string, AttributeValue> } }[]>).map(([name, writes]) => {
    const table = tables[name];
    if (table === undefined) throw new Error(`The test knows no table ${name}.`);
    const leading = new Set<string>();
    const attributes = new Set<string>();
    for (const write of writes) {
      const item = write.PutRequest?.Item ?? write.DeleteRequest?.Key ?? {};
      const partition = scalarOf(item[table.partitionKey]);
      if (partition !== undefined) leading.add(partition);
      for (const attribute of Object.keys(item)) attributes.add(attribute);
    }
    return { action: 'dynamodb:BatchWriteItem', resource: table.arn, context: { 'dynamodb:LeadingKeys': [...leading], 'dynamodb:Attributes': [...attributes] } };
  });
}

/**
 * Checks every request the client sends against the statements, as the session with these tags; a
 * request IAM would refuse fails as DynamoDB fails it, and never reaches the server.
 */
/** Told of every request judged, and the verdict. */
export type AccessRecorder = (request: AccessRequest, allowed: boolean) => void;

export function checkDynamoRequests(client: DynamoDBClient, statements: readonly PolicyStatement[], tags: Record<string, string>, tables: Record<string, TableShape>, record: AccessRecorder): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers: Record<string, string>; body: string };
      const operation = String(request.headers['x-amz-target']).split('.')[1]!;
      const body = JSON.parse(request.body) as Record<string, unknown>;
      const accesses = operation === 'BatchWriteItem' ? batchWriteRequestsOf(body, tables) : [dynamoRequestOf(operation, body, tables)];
      for (const access of accesses) {
        const allowed = isAllowed(statements, tags, access);
        record(access, allowed);
        if (!allowed) throw new AccessDenied(access);
      }
      return next(args);
    },
    { step: 'build', name: 'iamPolicyCheck' },
  );
}

/** An S3 bucket in memory behind the real SDK client, each call checked against the statements first. */
export function checkedS3(statements: readonly PolicyStatement[], tags: Record<string, string>, bucketArnOf: (bucket: string) => string, record: AccessRecorder) {
  const client = new S3Client({ region: 'ca-central-1' });
  const mock = mockClient(client);
  const objects = new Map<string, string>();
  const check = (action: string, input: { Bucket?: string; Key?: string }) => {
    const access = { action, resource: `${bucketArnOf(String(input.Bucket))}/${String(input.Key)}`, context: {} };
    const allowed = isAllowed(statements, tags, access);
    record(access, allowed);
    if (!allowed) throw Object.assign(new AccessDenied(access), { name: 'AccessDenied' });
  };
  mock.on(PutObjectCommand).callsFake((input: PutObjectCommandInput) => {
    check('s3:PutObject', input);
    objects.set(String(input.Key), String(input.Body));
    return {};
  });
  mock.on(GetObjectCommand).callsFake((input: GetObjectCommandInput) => {
    check('s3:GetObject', input);
    const body = objects.get(String(input.Key));
    if (body === undefined) throw new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} });
    return { Body: { transformToString: async () => body } };
  });
  mock.on(DeleteObjectCommand).callsFake((input: DeleteObjectCommandInput) => {
    check('s3:DeleteObject', input);
    objects.delete(String(input.Key));
    return {};
  });
  return { client, objects, restore: () => mock.restore() };
}
