// The Fargate task's run, as in the container: the job from DynamoDB, the credentials from KMS, the
// real engine against a Brightspace-like site on loopback, the reports to S3. AWS is faked at the
// SDK client boundary.
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { encryptCredentials } from '../../../api/aws/credentials-cipher.ts';
import { createDynamoJobStore } from '../../../api/aws/dynamo-job-store.ts';
import { createDynamoVerdictCache } from '../../../api/aws/dynamo-verdict-cache.ts';
import type { VerdictCache, VerdictCacheScope } from '../../../api/engine/verdict-cache.ts';
import { CREDENTIALS_UNREADABLE_REASON, RUN_TIMEOUT_MS, SESSION_END_MARGIN_MS, runFargateTask, runTimeoutWithin } from '../../../api/aws/fargate-task.ts';
import { createS3ReportStore } from '../../../api/aws/s3-report-store.ts';
import type { JobRecord, JobStore } from '../../../api/jobs/types.ts';
import { startBrightspaceSite } from '../../fixtures/brightspace-site.ts';
import type { BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { startDynalite } from '../support/dynalite.ts';
import type { Dynalite } from '../support/dynalite.ts';
import { fakeKms } from './fake-kms.ts';
import type { FakeKms } from './fake-kms.ts';
import { aJob as aRecord } from '../support/job-record.ts';

// Safety nets only: on a busy machine a run here can take many times its usual second or two.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const KEY = 'arn:aws:kms:ca-central-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const PASSWORD = 'Tr0ub4dor&3-fargate';

let site: BrightspaceSite;
let dynamo: Dynalite;

beforeAll(async () => {
  dynamo = await startDynalite();
  site = await startBrightspaceSite({
    login: 'form',
    users: [{ username: 'teacher', password: PASSWORD }],
    courses: [
      {
        orgUnitId: 6606,
        name: 'Nursing 101',
        code: 'NURS101',
        modules: [
          {
            id: 11,
            title: 'Week 1',
            topics: [{ id: 101, title: 'Welcome', kind: 'html', fileName: 'welcome.html', html: '<h1>Welcome</h1><p>Lorem ipsum dolor sit amet.</p>' }],
          },
        ],
      },
    ],
  });
});
afterAll(async () => {
  await site.close();
  await dynamo.close();
});

describe('the Fargate task', () => {
  let tableName: string;
  let kms: FakeKms;
  let s3: S3Client;
  let s3Mock: ReturnType<typeof mockClient>;
  let jobs: JobStore;
  let logs: string[];

  // The fixture site's module 11, on the fixture site.
  const aJob = (id: string, overrides: Partial<JobRecord> = {}): JobRecord => aRecord(id, { siteUrl: site.origin, modules: [11], ...overrides });
  const envFor = async (jobId: string, password: string, encryptedFor = jobId) => ({
    CTPO_JOB_ID: jobId,
    CTPO_CREDENTIALS_KEY_ARN: KEY,
    CTPO_ENCRYPTED_CREDENTIALS: await encryptCredentials(kms.client, KEY, encryptedFor, { username: 'teacher', password }),
  });
  const run = (env: Record<string, string>) =>
    runFargateTask({
      env,
      jobs,
      reports: createS3ReportStore({ client: s3, bucket: 'reports', prefix: 'reports/' }),
      kms: kms.client,
      allowPrivateTargets: true,
      log: (line) => logs.push(line),
    });

  beforeEach(async () => {
    tableName = await dynamo.createJobsTable();
    kms = fakeKms();
    s3 = new S3Client({ region: 'ca-central-1' });
    s3Mock = mockClient(s3);
    s3Mock.on(PutObjectCommand).resolves({});
    jobs = createDynamoJobStore({ client: dynamo.client, tableName, retentionDays: 30 });
    logs = [];
  });
  afterEach(() => {
    kms.restore();
    s3Mock.restore();
  });

  it('runs the job to SUCCEEDED with its summary, writes the report and its twins, exits 0, and writes the password nowhere', async () => {
    await jobs.create(aJob('job-ok'));
    expect(await run(await envFor('job-ok', PASSWORD))).toBe(0);
    expect(await jobs.get('job-ok')).toMatchObject({ status: 'SUCCEEDED', startedAt: expect.any(String), finishedAt: expect.any(String) });
    const puts = s3Mock.commandCalls(PutObjectCommand).map((call) => call.args[0].input);
    expect(puts.map((put) => put.Key)).toEqual(['reports/acme-college-ou6606-job-ok.json', 'reports/acme-college-ou6606-job-ok.csv', 'reports/acme-college-ou6606-job-ok.html']);
    expect((await jobs.get('job-ok'))?.summary).toMatchObject({ topics: expect.any(Number), scanned: expect.any(Number), findings: expect.objectContaining({ error: expect.any(Number) }) });
    const report = JSON.parse(String(puts[0]!.Body)) as { client: string; orgUnitId: number };
    expect(report).toMatchObject({ client: 'Acme College', orgUnitId: 6606 });
    const everything = JSON.stringify([await dynamo.items(tableName), puts.map((put) => put.Body), logs]);
    expect(everything).not.toContain(PASSWORD);
  });

  it('hands the deployment’s verdict cache to the run, which keeps the course’s verdicts for the next; FULL reuses none and still keeps them', async () => {
    const verdictsTable = await dynamo.createVerdictsTable();
    const store = createDynamoVerdictCache({ client: dynamo.client, tableName: verdictsTable, s3, bucket: 'reports' });
    const calls: { load: VerdictCacheScope[]; save: { scope: VerdictCacheScope; items: number }[] } = { load: [], save: [] };
    const cache: VerdictCache = {
      load: (scope) => (calls.load.push(scope), store.load(scope)),
      save: (scope, checked) => (calls.save.push({ scope, items: checked.items.size }), store.save(scope, checked)),
    };
    const runWith = (env: Record<string, string>) =>
      runFargateTask({ env, jobs, reports: createS3ReportStore({ client: s3, bucket: 'reports', prefix: 'reports/' }), cache, kms: kms.client, allowPrivateTargets: true, log: (line) => logs.push(line) });
    const course = { site: site.origin, orgUnitId: 6606 };

    await jobs.create(aJob('job-first'));
    expect(await runWith(await envFor('job-first', PASSWORD))).toBe(0);
    expect(calls.load).toEqual([course]);
    expect(calls.save).toEqual([{ scope: course, items: expect.any(Number) }]);
    expect(calls.save[0]!.items).toBeGreaterThan(0);
    expect((await store.load(course)).items.size).toBe(calls.save[0]!.items);

    // The next run of the course reads them back, and keeps them again (reused or checked anew).
    await jobs.create(aJob('job-second'));
    expect(await runWith(await envFor('job-second', PASSWORD))).toBe(0);
    expect(calls.load).toEqual([course, course]);
    expect(calls.save[1]).toEqual(calls.save[0]);

    await jobs.create(aJob('job-full', { full: true }));
    expect(await runWith({ ...(await envFor('job-full', PASSWORD)), CTPO_LINK_MAX_AGE: '48h' })).toBe(0);
    expect(calls.load).toHaveLength(2);
    expect(calls.save).toHaveLength(3);
    expect(JSON.stringify(await dynamo.items(verdictsTable))).not.toContain(PASSWORD);
  });

  it('checks everything, and says so in its log, when the verdict cache cannot be read', async () => {
    const unreadable: VerdictCache = {
      load: () => Promise.reject(Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ProvisionedThroughputExceededException' })),
      save: () => Promise.resolve(),
    };
    await jobs.create(aJob('job-unreadable-cache'));
    const code = await runFargateTask({ env: await envFor('job-unreadable-cache', PASSWORD), jobs, reports: createS3ReportStore({ client: s3, bucket: 'reports', prefix: 'reports/' }), cache: unreadable, kms: kms.client, allowPrivateTargets: true, log: (line) => logs.push(line) });
    expect(code).toBe(0);
    expect(await jobs.get('job-unreadable-cache')).toMatchObject({ status: 'SUCCEEDED' });
    expect(logs).toContain('job job-unreadable-cache: the verdict cache could not be read (ProvisionedThroughputExceededException); every item is checked');
  });

  it('refuses a link maximum age it cannot read, before it touches the job', async () => {
    await jobs.create(aJob('job-setting'));
    await expect(run({ ...(await envFor('job-setting', PASSWORD)), CTPO_LINK_MAX_AGE: '1.5h' })).rejects.toThrow(/CTPO_LINK_MAX_AGE must be a number of seconds/);
    expect(await jobs.get('job-setting')).toMatchObject({ status: 'PROVISIONING' });
  });

  it('ends FAILED with the engine’s reason and exits 1 when Brightspace refuses the password', async () => {
    await jobs.create(aJob('job-bad-password'));
    expect(await run(await envFor('job-bad-password', 'wrong-password'))).toBe(1);
    const job = await jobs.get('job-bad-password');
    expect(job?.status).toBe('FAILED');
    expect(job?.reason).toMatch(/^Brightspace did not accept this user/);
    expect(s3Mock.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('refuses credentials encrypted for another job', async () => {
    await jobs.create(aJob('job-2'));
    expect(await run(await envFor('job-2', PASSWORD, 'job-1'))).toBe(1);
    expect(await jobs.get('job-2')).toMatchObject({ status: 'FAILED', reason: formatMessage(CREDENTIALS_UNREADABLE_REASON) });
    expect(logs.join('\n')).toMatch(/decrypting the credentials failed: InvalidCiphertextException/);
  });

  it('runs nothing for a job that is gone or already over', async () => {
    expect(await run(await envFor('job-gone', PASSWORD))).toBe(1);
    await jobs.create(aJob('job-done', { status: 'SUCCEEDED' }));
    expect(await run(await envFor('job-done', PASSWORD))).toBe(0);
    await jobs.create(aJob('job-failed', { status: 'FAILED', reason: 'Stopped.' }));
    expect(await run(await envFor('job-failed', PASSWORD))).toBe(1);
    expect(s3Mock.commandCalls(PutObjectCommand)).toHaveLength(0);
    expect(await jobs.get('job-failed')).toMatchObject({ reason: 'Stopped.' });
  });

  it('stops a run that takes too long, saying so', async () => {
    await jobs.create(aJob('job-slow'));
    const env = await envFor('job-slow', PASSWORD);
    const code = await runFargateTask({
      env,
      jobs,
      reports: createS3ReportStore({ client: s3, bucket: 'reports', prefix: 'reports/' }),
      kms: kms.client,
      allowPrivateTargets: true,
      runTimeoutMs: 1,
      log: (line) => logs.push(line),
    });
    expect(code).toBe(1);
    expect(await jobs.get('job-slow')).toMatchObject({ status: 'FAILED', reason: expect.stringMatching(/took longer than 1 second and was stopped/) });
  });

  it('ends a run that started late before its session does, so it can still record its end', () => {
    const now = new Date('2026-11-28T06:00:00Z');
    const endsIn = (minutes: number) => ({ expiration: new Date(now.getTime() + minutes * 60_000).toISOString() });
    // A task that starts at once has its whole half hour.
    expect(runTimeoutWithin(endsIn(59), now)).toBe(RUN_TIMEOUT_MS);
    // One that waited 40 minutes for its image stops with time left to write its end.
    expect(runTimeoutWithin(endsIn(20), now)).toBe(20 * 60_000 - SESSION_END_MARGIN_MS);
    // Never less than a minute: a run with no time left fails at once, saying it was stopped.
    expect(runTimeoutWithin(endsIn(1), now)).toBe(60_000);
  });
});
