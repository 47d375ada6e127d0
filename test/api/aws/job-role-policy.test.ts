// The job role's policy as the stack synthesizes it, applied to every request a run's task makes: on
// dynalite, each DynamoDB call is first judged by a small IAM evaluator (iam-policy.ts) as the
// session run-tests takes for the job, and S3 is faked at its client with the same check. A real run
// (the real stores, the real task) gets everything it needs; its session reaches no other job, no
// other report, no other owner's history, no other course's cached verdicts, and cannot change who
// owns its own job.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { taskDepsOf } from '../../../api/aws/aws-deps.ts';
import { encryptCredentials } from '../../../api/aws/credentials-cipher.ts';
import { createDynamoDismissalStore } from '../../../api/aws/dynamo-dismissal-store.ts';
import { OWNER_CREATED_INDEX } from '../../../api/aws/dynamo-job-history.ts';
import { createDynamoJobStore } from '../../../api/aws/dynamo-job-store.ts';
import { createDynamoProtocolStore } from '../../../api/aws/dynamo-protocol-store.ts';
import { INLINE_VALUE_BYTES, VERDICTS_PREFIX, createDynamoVerdictCache, verdictPartition } from '../../../api/aws/dynamo-verdict-cache.ts';
import type { CourseVerdicts } from '../../../api/engine/verdict-cache.ts';
import { runFargateTask } from '../../../api/aws/fargate-task.ts';
import { assumeJobRole } from '../../../api/aws/job-session.ts';
import type { JobRecord } from '../../../api/jobs/types.ts';
import { startBrightspaceSite } from '../../fixtures/brightspace-site.ts';
import type { BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { dismissalsTable, jobsTable, protocolsTable, reportsBucket, statementsOf, verdictsTable } from '../../infra/resources.ts';
import { only, render, synthesize } from '../../infra/support.ts';
import { startDynalite } from '../support/dynalite.ts';
import type { Dynalite } from '../support/dynalite.ts';
import { aJob as aRecord } from '../support/job-record.ts';
import { fakeKms } from './fake-kms.ts';
import type { FakeKms } from './fake-kms.ts';
import { fakeSts } from './fake-sts.ts';
import { checkDynamoRequests, checkedS3, isAllowed } from './iam-policy.ts';
import type { AccessRequest, PolicyStatement, TableShape } from './iam-policy.ts';

// Safety nets only: a synth, a DynamoDB-compatible server and two real runs on a shared machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const ACCOUNT = 'arn:aws:dynamodb:ca-central-1:111122223333:table';
const BUCKET = 'ctpo-reports';
const KEY = 'arn:aws:kms:ca-central-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const PASSWORD = 'Tr0ub4dor&3-policy';

/** The job role's statements as synthesized, with the stack's ARNs; and the template's ids to map. */
let synthesized: { statements: PolicyStatement[]; ids: { jobs: string; dismissals: string; protocols: string; verdicts: string; bucket: string } };
let site: BrightspaceSite;
let dynamo: Dynalite;

beforeAll(async () => {
  const synth = synthesize();
  try {
    const role = only(synth.template, 'AWS::IAM::Role', { Description: Match.stringLikeRegexp('what one run may touch') });
    synthesized = {
      statements: statementsOf(synth.template, role.id) as PolicyStatement[],
      ids: { jobs: jobsTable(synth.template).id, dismissals: dismissalsTable(synth.template).id, protocols: protocolsTable(synth.template).id, verdicts: verdictsTable(synth.template).id, bucket: reportsBucket(synth.template).id },
    };
  } finally {
    synth.dispose();
  }
  dynamo = await startDynalite();
  site = await startBrightspaceSite({
    login: 'form',
    users: [{ username: 'teacher', password: PASSWORD }],
    courses: [{ orgUnitId: 6606, name: 'Nursing 101', code: 'NURS101', modules: [{ id: 11, title: 'Week 1', topics: [{ id: 101, title: 'Welcome', kind: 'html', fileName: 'welcome.html', html: '<h1>Welcome</h1><p>Lorem ipsum dolor sit amet.</p>' }] }] }],
  });
});
afterAll(async () => {
  await site?.close();
  await dynamo?.close();
});

describe('the job role, as synthesized, on the calls a run makes', () => {
  let tables: { jobs: string; dismissals: string; protocols: string; verdicts: string };
  let shapes: Record<string, TableShape>;
  /** The statements with this test's tables and bucket in their ARNs. */
  let statements: PolicyStatement[];
  let kms: FakeKms;
  const restores: (() => void)[] = [];
  let allowed: AccessRequest[];
  let denied: AccessRequest[];

  const course = () => ({ siteUrl: site.origin, orgUnitId: 6606 });
  const aJob = (id: string, overrides: Partial<JobRecord> = {}): JobRecord => aRecord(id, { siteUrl: site.origin, modules: [11], ...overrides });

  beforeEach(async () => {
    tables = { jobs: await dynamo.createJobsTable(), dismissals: await dynamo.createDismissalsTable(), protocols: await dynamo.createProtocolsTable(), verdicts: await dynamo.createVerdictsTable() };
    shapes = {
      [tables.jobs]: { arn: `${ACCOUNT}/${tables.jobs}`, partitionKey: 'id', indexes: { [OWNER_CREATED_INDEX]: 'owner', 'by-owner': 'owner' } },
      [tables.dismissals]: { arn: `${ACCOUNT}/${tables.dismissals}`, partitionKey: 'course' },
      [tables.protocols]: { arn: `${ACCOUNT}/${tables.protocols}`, partitionKey: 'scope' },
      [tables.verdicts]: { arn: `${ACCOUNT}/${tables.verdicts}`, partitionKey: 'course' },
    };
    const arns = {
      [`${synthesized.ids.jobs}.Arn`]: `${ACCOUNT}/${tables.jobs}`,
      [`${synthesized.ids.dismissals}.Arn`]: `${ACCOUNT}/${tables.dismissals}`,
      [`${synthesized.ids.protocols}.Arn`]: `${ACCOUNT}/${tables.protocols}`,
      [`${synthesized.ids.verdicts}.Arn`]: `${ACCOUNT}/${tables.verdicts}`,
      [`${synthesized.ids.bucket}.Arn`]: `arn:aws:s3:::${BUCKET}`,
    };
    statements = synthesized.statements.map((statement) => ({
      ...statement,
      Resource: Array.isArray(statement.Resource) ? statement.Resource.map((resource) => render(resource, arns)) : render(statement.Resource, arns),
    }));
    kms = fakeKms();
    restores.push(() => kms.restore());
    allowed = [];
    denied = [];
  });
  afterEach(() => {
    for (const restore of restores.splice(0)) restore();
  });

  /** What a task holds for the job: its session's tags (as run-tests takes it), and clients that act as it. */
  async function sessionFor(job: JobRecord, baseline?: string) {
    const sts = fakeSts();
    restores.push(() => sts.restore());
    await assumeJobRole(sts.client, 'arn:aws:iam::111122223333:role/ctpo-job', job, baseline);
    const tags = Object.fromEntries((sts.calls()[0]!.Tags ?? []).map((tag) => [tag.Key!, tag.Value!]));
    const seen = (request: AccessRequest, verdict: boolean) => (verdict ? allowed : denied).push(request);
    const raw = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'ca-central-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    checkDynamoRequests(raw, statements, tags, shapes, seen);
    const s3 = checkedS3(statements, tags, (bucket) => `arn:aws:s3:::${bucket}`, seen);
    restores.push(() => s3.restore());
    const env: Record<string, string> = {
      CTPO_JOBS_TABLE: tables.jobs,
      CTPO_DISMISSALS_TABLE: tables.dismissals,
      CTPO_PROTOCOLS_TABLE: tables.protocols,
      CTPO_VERDICTS_TABLE: tables.verdicts,
      CTPO_REPORT_EXPIRY_DAYS: '30',
      CTPO_REPORTS_BUCKET: BUCKET,
      CTPO_REPORTS_PREFIX: 'reports/',
      CTPO_JOB_ID: job.id,
      CTPO_CREDENTIALS_KEY_ARN: KEY,
      CTPO_ENCRYPTED_CREDENTIALS: await encryptCredentials(kms.client, KEY, job.id, { username: 'teacher', password: PASSWORD }),
      ...(baseline === undefined ? {} : { CTPO_BASELINE_REPORT: baseline }),
    };
    const client = DynamoDBDocumentClient.from(raw);
    return { env, client, s3, tags, deps: taskDepsOf(env, { dynamo: client, s3: s3.client }) };
  }

  const run = async (session: Awaited<ReturnType<typeof sessionFor>>) =>
    runFargateTask({ env: session.env, ...session.deps, kms: kms.client, allowPrivateTargets: true, log: () => undefined });

  it("lets a real run do everything it does: read and update its job, read its owner's dismissals and protocol, compare with the report it was handed, write its report", async () => {
    const unchecked = createDynamoJobStore({ client: dynamo.client, tableName: tables.jobs, retentionDays: 30 });
    const first = aJob('job-1', { createdAt: '2026-11-27T10:00:00.000Z' });
    const second = aJob('job-2', { createdAt: '2026-11-28T10:00:00.000Z' });
    await unchecked.create(first);
    await unchecked.create(second);
    await createDynamoDismissalStore({ client: dynamo.client, tableName: tables.dismissals }).put('user-a', course(), { fingerprint: 'f-1', by: 'qa@example.com', at: new Date().toISOString() });

    const firstSession = await sessionFor(first);
    expect(await run(firstSession)).toBe(0);
    const secondSession = await sessionFor(second, first.filename);
    // The report the first run wrote, as the bucket holds it.
    for (const [key, body] of firstSession.s3.objects) secondSession.s3.objects.set(key, body);
    expect(await run(secondSession)).toBe(0);

    expect(denied).toEqual([]);
    expect(await unchecked.get('job-2')).toMatchObject({ status: 'SUCCEEDED', owner: 'user-a', summary: expect.objectContaining({ comparison: expect.anything() }) });
    const actions = new Set(allowed.map((request) => `${request.action} ${request.resource.replace(/.*:(table|::)\/?/, '')}`));
    expect([...actions].sort()).toEqual(
      [
        `dynamodb:GetItem ${tables.jobs}`,
        `dynamodb:UpdateItem ${tables.jobs}`,
        `dynamodb:Query ${tables.dismissals}`,
        `dynamodb:GetItem ${tables.protocols}`,
        `dynamodb:Query ${tables.protocols}`,
        // Its course's cached verdicts: read, then what it checked written.
        `dynamodb:Query ${tables.verdicts}`,
        `dynamodb:BatchWriteItem ${tables.verdicts}`,
        `s3:PutObject ${BUCKET}/reports/${first.filename}.json`,
        `s3:PutObject ${BUCKET}/reports/${first.filename}.csv`,
        `s3:PutObject ${BUCKET}/reports/${first.filename}.html`,
        `s3:PutObject ${BUCKET}/reports/${second.filename}.json`,
        `s3:PutObject ${BUCKET}/reports/${second.filename}.csv`,
        `s3:PutObject ${BUCKET}/reports/${second.filename}.html`,
        // The first run's report, which the second compares itself with.
        `s3:GetObject ${BUCKET}/reports/${first.filename}.json`,
      ].sort(),
    );
  });

  it('refuses a session another job, a change of its own owner, another report and another owner’s history', async () => {
    const unchecked = createDynamoJobStore({ client: dynamo.client, tableName: tables.jobs, retentionDays: 30 });
    const own = aJob('job-own');
    const other = aJob('job-other', { owner: 'user-b', filename: 'other-ou6606-secret' });
    await unchecked.create(own);
    await unchecked.create(other);
    const { client, deps } = await sessionFor(own, 'acme-college-ou6606-previous');
    const refused = { name: 'AccessDeniedException' };

    // Its own job: read and updated, through the real store.
    expect(await deps.jobs.get('job-own')).toMatchObject({ id: 'job-own', owner: 'user-a' });
    expect(await deps.jobs.update('job-own', { status: 'RUNNING' })).toMatchObject({ status: 'RUNNING' });
    // Another job: neither read nor updated.
    await expect(deps.jobs.get('job-other')).rejects.toMatchObject(refused);
    await expect(deps.jobs.update('job-other', { status: 'FAILED', reason: 'taken' })).rejects.toMatchObject(refused);
    // Its own job's owner, report name or runner reference: never, however the call is made.
    const setOwn = (attribute: string, value: string) =>
      client.send(new UpdateCommand({ TableName: tables.jobs, Key: { id: 'job-own' }, UpdateExpression: 'SET #a = :v', ExpressionAttributeNames: { '#a': attribute }, ExpressionAttributeValues: { ':v': value } }));
    for (const attribute of ['owner', 'filename', 'runnerRef', 'siteUrl']) await expect(setOwn(attribute, 'user-b')).rejects.toMatchObject(refused);
    await expect(
      client.send(new UpdateCommand({ TableName: tables.jobs, Key: { id: 'job-own' }, AttributeUpdates: { owner: { Action: 'PUT', Value: 'user-b' } } } as never)),
    ).rejects.toMatchObject(refused);
    await expect(client.send(new PutCommand({ TableName: tables.jobs, Item: { ...own, owner: 'user-b' } }))).rejects.toMatchObject(refused);
    await expect(client.send(new DeleteCommand({ TableName: tables.jobs, Key: { id: 'job-own' } }))).rejects.toMatchObject(refused);
    // No one's runs listed, its owner's included: the report to compare with was handed to it.
    await expect(
      client.send(new QueryCommand({ TableName: tables.jobs, IndexName: OWNER_CREATED_INDEX, KeyConditionExpression: '#o = :o', ExpressionAttributeNames: { '#o': 'owner' }, ExpressionAttributeValues: { ':o': 'user-b' } })),
    ).rejects.toMatchObject(refused);
    // Another owner's dismissals and protocols.
    await expect(createDynamoDismissalStore({ client, tableName: tables.dismissals }).list('user-b', course())).rejects.toMatchObject(refused);
    const protocols = createDynamoProtocolStore({ client, tableName: tables.protocols });
    await expect(protocols.get('user-b', 'Acme College')).rejects.toMatchObject(refused);
    await expect(protocols.answers('user-b', course())).rejects.toMatchObject(refused);
    // Nor may it write its owner's protocol.
    await expect(protocols.put('user-a', { client: 'Acme College', protocol: { items: [] } as never, by: 'x', at: 'y' })).rejects.toMatchObject(refused);
    // Another report: not read, written or deleted; its own report is its own to delete.
    const files = { html: '<p>forged</p>', json: '{}', csv: '' };
    await expect(deps.reports.get('other-ou6606-secret', 'json')).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(deps.reports.put('other-ou6606-secret', files)).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(deps.reports.remove('other-ou6606-secret')).rejects.toMatchObject({ name: 'AccessDenied' });
    // The report it was handed, it may read; its own it may write and delete (a cancelled run does).
    expect(await deps.reports.get('acme-college-ou6606-previous', 'json')).toBeUndefined();
    await deps.reports.put(own.filename, files);
    await deps.reports.remove(own.filename);
    // Nothing of the other job changed.
    expect(await unchecked.get('job-other')).toMatchObject({ status: 'PROVISIONING', owner: 'user-b' });
    expect(await unchecked.get('job-own')).toMatchObject({ owner: 'user-a', filename: own.filename });
  });

  it('lets a run load and save its own course’s cached verdicts, values in the bucket included, and refuses it every other course’s', async () => {
    const own = aJob('job-cache');
    const session = await sessionFor(own);
    const ownCourse = { site: site.origin, orgUnitId: own.orgUnitId };
    // The partition the starter tagged the session with is the one the engine's store names.
    expect(session.tags['ctpo-course']).toBe(verdictPartition(ownCourse));
    const otherCourse = { site: site.origin, orgUnitId: own.orgUnitId + 1 };
    const otherSite = { site: 'https://other.brightspace.com', orgUnitId: own.orgUnitId };
    const large = 'v'.repeat(INLINE_VALUE_BYTES + 1);
    const checked = (value: string): CourseVerdicts => ({
      items: new Map([['topic:101', { digest: 'd', checkedAt: '2026-11-28T06:00:00.000Z', value }], ['topic:102', { digest: 'e', checkedAt: '2026-11-28T06:00:00.000Z', value: 'small' }]]),
      links: new Map([['https://example.com/', { checkedAt: '2026-11-28T06:00:00.000Z', value: 200 }]]),
    });
    const refusedDynamo = { name: 'AccessDeniedException' };

    // Another course's verdicts, as an honest store holds them (written without the session).
    const bucketOnly = checkedS3([{ Effect: 'Allow', Action: 's3:*', Resource: '*' }], {}, (bucket) => `arn:aws:s3:::${bucket}`, () => undefined);
    restores.push(() => bucketOnly.restore());
    const unchecked = createDynamoVerdictCache({ client: dynamo.client, tableName: tables.verdicts, s3: bucketOnly.client, bucket: BUCKET });
    for (const other of [otherCourse, otherSite]) await unchecked.save(other, checked(large));
    const otherObjects = [...bucketOnly.objects.keys()];
    expect(otherObjects).toHaveLength(2);
    for (const [key, body] of bucketOnly.objects) session.s3.objects.set(key, body);

    // Its own course: saved (the large value to the bucket under its course's prefix), loaded, replaced.
    const cache = createDynamoVerdictCache({ client: session.client, tableName: tables.verdicts, s3: session.s3.client, bucket: BUCKET, now: () => new Date('2026-11-28T06:30:00.000Z') });
    await cache.save(ownCourse, checked(large));
    const ownObjects = [...session.s3.objects.keys()].filter((key) => !otherObjects.includes(key));
    expect(ownObjects).toHaveLength(1);
    expect(ownObjects[0]!.startsWith(`${VERDICTS_PREFIX}${site.origin}/${own.orgUnitId}/`)).toBe(true);
    const loaded = await cache.load(ownCourse);
    expect(loaded.items.get('topic:101')?.value).toBe(large);
    expect(loaded.links.get('https://example.com/')?.value).toBe(200);
    await cache.save(ownCourse, { items: new Map([['topic:101', { digest: 'd2', checkedAt: '2026-11-28T06:20:00.000Z', value: 'now small' }]]), links: new Map() });
    expect(session.s3.objects.has(ownObjects[0]!)).toBe(false);
    expect(denied).toEqual([]);

    // Another course, of its site or of another: neither loaded nor saved through the store.
    for (const other of [otherCourse, otherSite]) {
      await expect(cache.load(other)).rejects.toMatchObject(refusedDynamo);
      await expect(cache.save(other, checked('forged'))).rejects.toMatchObject(refusedDynamo);
    }
    // Nor by a batch that slips one foreign write among its own, nor by a Query of another partition.
    const put = (course: string) => ({ PutRequest: { Item: { course, key: 'item#x', kind: 'item', name: 'x', checkedAt: 'a', writtenAt: 'a', expiresAt: 9_999_999_999, json: '1' } } });
    await expect(session.client.send(new BatchWriteCommand({ RequestItems: { [tables.verdicts]: [put(verdictPartition(ownCourse)), put(verdictPartition(otherCourse))] } }))).rejects.toMatchObject(refusedDynamo);
    await expect(session.client.send(new BatchWriteCommand({ RequestItems: { [tables.verdicts]: [{ DeleteRequest: { Key: { course: verdictPartition(otherCourse), key: 'item#x' } } }] } }))).rejects.toMatchObject(refusedDynamo);
    await expect(
      session.client.send(new QueryCommand({ TableName: tables.verdicts, KeyConditionExpression: '#c = :c', ExpressionAttributeNames: { '#c': 'course' }, ExpressionAttributeValues: { ':c': verdictPartition(otherSite) } })),
    ).rejects.toMatchObject(refusedDynamo);
    // Another course's values in the bucket: not read, replaced or deleted.
    for (const key of otherObjects) {
      await expect(session.s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).rejects.toMatchObject({ name: 'AccessDenied' });
      await expect(session.s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: '"forged"' }))).rejects.toMatchObject({ name: 'AccessDenied' });
      await expect(session.s3.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }))).rejects.toMatchObject({ name: 'AccessDenied' });
    }
    // A course whose partition starts like its own (org unit 1 and 10) is another course.
    await expect(session.s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${VERDICTS_PREFIX}${verdictPartition(ownCourse)}0/item-x.json` }))).rejects.toMatchObject({ name: 'AccessDenied' });
    // The other courses are whole.
    for (const other of [otherCourse, otherSite]) expect((await unchecked.load(other)).items.get('topic:101')?.value).toBe(large);
  });
});

describe('the test’s IAM evaluator', () => {
  const allow = (extra: Partial<PolicyStatement> = {}): PolicyStatement => ({ Effect: 'Allow', Action: 'dynamodb:Get*', Resource: 'arn:t/${aws:PrincipalTag/t}', ...extra });
  const request = (context: Record<string, string[]> = {}): AccessRequest => ({ action: 'dynamodb:GetItem', resource: 'arn:t/a', context });

  it('allows by a matching statement, with wildcard actions and tag-filled resources, and denies by default', () => {
    expect(isAllowed([allow()], { t: 'a' }, request())).toBe(true);
    expect(isAllowed([allow()], { t: 'b' }, request())).toBe(false);
    // A statement naming a tag the session does not have applies to nothing.
    expect(isAllowed([allow()], {}, request())).toBe(false);
    expect(isAllowed([], { t: 'a' }, request())).toBe(false);
  });

  it('lets an explicit Deny win', () => {
    expect(isAllowed([allow(), { ...allow(), Effect: 'Deny' }], { t: 'a' }, request())).toBe(false);
  });

  it('judges the condition operators the job role uses', () => {
    const onKeys = (Condition: PolicyStatement['Condition']) => [allow({ Condition })];
    const allKeys = onKeys({ 'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['id', 'status'] } });
    expect(isAllowed(allKeys, { t: 'a' }, request({ 'dynamodb:Attributes': ['id', 'status'] }))).toBe(true);
    expect(isAllowed(allKeys, { t: 'a' }, request({ 'dynamodb:Attributes': ['id', 'owner'] }))).toBe(false);
    const like = onKeys({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['["${aws:PrincipalTag/t}",*'] } });
    expect(isAllowed(like, { t: 'a' }, request({ 'dynamodb:LeadingKeys': ['["a","https://x",1]'] }))).toBe(true);
    expect(isAllowed(like, { t: 'a' }, request({ 'dynamodb:LeadingKeys': ['["b","https://x",1]'] }))).toBe(false);
    const single = onKeys({ StringEquals: { 'dynamodb:ReturnValues': 'NONE' } });
    expect(isAllowed(single, { t: 'a' }, request({ 'dynamodb:ReturnValues': ['NONE'] }))).toBe(true);
    expect(isAllowed(single, { t: 'a' }, request())).toBe(false);
  });
});
