import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ECSClient, RunTaskCommand } from '@aws-sdk/client-ecs';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { CloudFrontKeyValueStoreClient, ConflictException, DescribeKeyValueStoreCommand, UpdateKeysCommand } from '@aws-sdk/client-cloudfront-keyvaluestore';
import type { CloudFrontKeyValueStoreClientResolvedConfig, ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/client-cloudfront-keyvaluestore';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import type { AwsStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RUN_SLOT_PREFIX, createDynamoJobStore } from '../../../api/aws/dynamo-job-store.ts';
import { createEcsJobRunner } from '../../../api/aws/ecs-job-runner.ts';
import { NO_DISMISSALS, NO_JOB_HISTORY, NO_JOB_RUNNER, NO_JOB_STORE, NO_TABLE_OF_CONTENTS, apiRequestOf, lambdaHandlerOf } from '../../../api/aws/lambda/http-lambda.ts';
import { REVOCATION_ATTEMPTS, createKvsReportLinkRevocations } from '../../../api/aws/kvs-report-link-revocations.ts';
import { reportSigningKeyFromSecret } from '../../../api/aws/report-signing-key.ts';
import { handleRevokeReportLinks } from '../../../api/http/report-link-routes.ts';
import { EDGE_TOKEN_HEADER } from '../../../api/aws/settings.ts';
import { REPORT_KEY_STORE_PREFIX, ownerTagOf } from '../../../api/http/report-capability.ts';
import { createIssuerTokenVerifier } from '../../../api/http/access-token.ts';
import { handleJobStatus, handleRunTests } from '../../../api/http/routes.ts';
import type { ApiDeps } from '../../../api/http/routes.ts';
import type { JobRecord, JobStore } from '../../../api/jobs/types.ts';
import { startDynalite } from '../support/dynalite.ts';
import type { Dynalite } from '../support/dynalite.ts';
import { REPORT_GATE_FILE } from '../../../infra/lib/site.ts';
import { isResponse, loadCloudFrontFunction } from '../../infra/edge-runtime.ts';
import { fakeKms } from './fake-kms.ts';
import type { FakeKms } from './fake-kms.ts';
import { fakeSts } from './fake-sts.ts';
import type { FakeSts } from './fake-sts.ts';

// A real DynamoDB-compatible server on a machine shared with other test runs.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const ISSUER = 'https://cognito-idp.ca-central-1.amazonaws.com/ca-central-1_AbC123xyz';
const CLIENT_ID = '4example5client6id7';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const { n, e } = publicKey.export({ format: 'jwk' });
const jwk = { kty: 'RSA', n: n!, e: e!, kid: 'test-key', alg: 'RS256', use: 'sig' };

function accessToken(sub: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${encode({ alg: 'RS256', kid: 'test-key', typ: 'JWT' })}.${encode({
    sub,
    username: sub,
    iss: ISSUER,
    token_use: 'access',
    client_id: CLIENT_ID,
    iat: now,
    exp: now + 600,
  })}`;
  return `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), privateKey).toString('base64url')}`;
}

/**
 * A function URL (payload 2.0) event as Lambda delivers it behind CloudFront: origin access control's
 * signature in Authorization, the caller's token where the edge function moved it.
 */
function httpEvent(method: string, rawPath: string, options: { token?: string; body?: string; base64?: boolean } = {}): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    host: 'abc123.lambda-url.ca-central-1.on.aws',
    authorization: 'AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE/20260501/ca-central-1/lambda/aws4_request, SignedHeaders=host, Signature=0123',
  };
  if (options.token !== undefined) headers[EDGE_TOKEN_HEADER] = `Bearer ${options.token}`;
  const event = {
    version: '2.0',
    routeKey: `${method} ${rawPath}`,
    rawPath,
    rawQueryString: '',
    headers,
    requestContext: { http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '198.51.100.7', userAgent: 'test' } },
    isBase64Encoded: options.base64 === true,
  } as unknown as APIGatewayProxyEventV2;
  if (options.body !== undefined) event.body = options.base64 === true ? Buffer.from(options.body).toString('base64') : options.body;
  return event;
}

// The key as the rotation function keeps it in the secret and in the edge's KeyValueStore.
const REPORT_KEY = { keyId: 'k1abc', key: 'Qm9vdHN0cmFwIHJlcG9ydCBrZXkgZm9yIHRlc3RzIG9ubHk0' };

function aJob(id: string, overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    id,
    owner: 'user-a',
    status: 'SUCCEEDED',
    client: 'Acme College',
    siteUrl: 'https://acme.brightspace.com',
    orgUnitId: 6606,
    modules: [1],
    filename: 'acme-college-ou6606-20260501-x7k2',
    createdAt: '2026-05-01T10:00:00.000Z',
    updatedAt: '2026-05-01T10:05:00.000Z',
    ...overrides,
  };
}

let dynamo: Dynalite;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(() => dynamo.close());

describe('the API routes as Lambda functions', () => {
  let tableName: string;
  let jobs: JobStore;
  let deps: Omit<ApiDeps, 'runner' | 'jobs'>;
  /** The job items as stored (the slot items behind the run caps left out). */
  const storedJobs = async () => (await dynamo.items(tableName)).filter((item) => !String(item.id).startsWith(RUN_SLOT_PREFIX));

  beforeEach(async () => {
    tableName = await dynamo.createJobsTable();
    jobs = createDynamoJobStore({ client: dynamo.client, tableName, retentionDays: 30 });
    const verifier = createIssuerTokenVerifier({ issuer: ISSUER, jwksUri: `${ISSUER}/.well-known/jwks.json`, clientId: CLIENT_ID, jwks: { keys: [jwk] } });
    deps = {
      verifier,
      loadTableOfContents: NO_TABLE_OF_CONTENTS,
      history: NO_JOB_HISTORY,
      dismissals: NO_DISMISSALS,
      outputUrl: 'https://d111111abcdef8.cloudfront.net/reports/',
      reportSigningKey: async () => REPORT_KEY,
      allowedOrigins: [],
      allowPrivateTargets: false,
      maxActiveRunsPerUser: 3,
      maxActiveRuns: 20,
    };
  });

  it('turns an HTTP API event into the request the routes read', () => {
    const request = apiRequestOf({
      ...httpEvent('POST', '/api/toc', { body: '{"a":1}', base64: true }),
      rawQueryString: 'x=1&y=2',
      headers: { 'Content-Type': 'application/json', origin: 'http://localhost:5173' },
    });
    expect(request).toMatchObject({ method: 'POST', path: '/api/toc', body: '{"a":1}', headers: { 'content-type': 'application/json', origin: 'http://localhost:5173' } });
    expect(request.query?.get('y')).toBe('2');
    expect(apiRequestOf(httpEvent('GET', '/api/job-status/abc')).body).toBeUndefined();
  });

  it("takes the caller's token only from the header the edge moved it to, never CloudFront's signature", () => {
    const signed = apiRequestOf(httpEvent('GET', '/api/job-status/abc', { token: 'caller.token.here' }));
    expect(signed.headers.authorization).toBe('Bearer caller.token.here');
    expect(signed.headers[EDGE_TOKEN_HEADER]).toBeUndefined();
    expect(apiRequestOf(httpEvent('GET', '/api/job-status/abc')).headers.authorization).toBeUndefined();
  });

  it('answers job-status for the owner, with the report address once it succeeded', async () => {
    await jobs.create(aJob('3b0e5c1e-55a4-4c4a-9d4c-2f6f0b1f7a10'));
    const handler = lambdaHandlerOf(handleJobStatus, { ...deps, jobs, runner: NO_JOB_RUNNER });
    const result = await handler(httpEvent('GET', '/api/job-status/3b0e5c1e-55a4-4c4a-9d4c-2f6f0b1f7a10', { token: accessToken('user-a') }));
    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    const body = JSON.parse(result.body!) as { status: string; outputUrl: string };
    expect(body.status).toBe('SUCCEEDED');
    expect(body.outputUrl).toMatch(/^https:\/\/d111111abcdef8\.cloudfront\.net\/reports\/k1abc\.[1-9][0-9]+\.[1-9][0-9]+\.[0-9a-f]{16}\.[0-9a-f]{64}\/$/);

    const stranger = await handler(httpEvent('GET', '/api/job-status/3b0e5c1e-55a4-4c4a-9d4c-2f6f0b1f7a10', { token: accessToken('user-b') }));
    expect(stranger.statusCode).toBe(403);
    const anonymous = await handler(httpEvent('GET', '/api/job-status/3b0e5c1e-55a4-4c4a-9d4c-2f6f0b1f7a10'));
    expect(anonymous.statusCode).toBe(401);
    // A bearer token in Authorization itself is not the caller's (CloudFront signs there).
    const direct = httpEvent('GET', '/api/job-status/3b0e5c1e-55a4-4c4a-9d4c-2f6f0b1f7a10');
    direct.headers.authorization = `Bearer ${accessToken('user-a')}`;
    expect((await handler(direct)).statusCode).toBe(401);
    expect(JSON.parse(anonymous.body!)).toMatchObject({ code: 'unauthorized' });
  });

  it("hands out a report link, signed with the secret's current key, that the edge's report gate lets through", async () => {
    const secrets = mockClient(SecretsManagerClient);
    try {
      secrets.on(GetSecretValueCommand, { SecretId: 'report-key-secret' }).resolves({ SecretString: JSON.stringify(REPORT_KEY) });
      const job = aJob('6c1f3e0a-4b9d-4f2e-8a57-1d2c3b4a5f60');
      await jobs.create(job);
      const signingKey = reportSigningKeyFromSecret({ secretId: 'report-key-secret', client: new SecretsManagerClient({ region: 'ca-central-1' }) });
      const handler = lambdaHandlerOf(handleJobStatus, { ...deps, jobs, runner: NO_JOB_RUNNER, reportSigningKey: signingKey });
      const statusOf = async () => {
        const result = await handler(httpEvent('GET', `/api/job-status/${job.id}`, { token: accessToken('user-a') }));
        return (JSON.parse(result.body!) as { outputUrl: string }).outputUrl;
      };
      const outputUrl = await statusOf();
      // Read once and kept: the next status answer signs without another read.
      await statusOf();
      expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);

      const gate = loadCloudFrontFunction(readFileSync(REPORT_GATE_FILE, 'utf8'), { [`${REPORT_KEY_STORE_PREFIX}${REPORT_KEY.keyId}`]: REPORT_KEY.key });
      for (const extension of ['html', 'json', 'csv']) {
        const uri = new URL(`${outputUrl}${job.filename}.${extension}`).pathname;
        const passed = await gate({ request: { method: 'GET', uri, querystring: {}, headers: {} } });
        expect(isResponse(passed), uri).toBe(false);
        expect((passed as { uri: string }).uri).toBe(`/reports/${job.filename}.${extension}`);
      }
      // The same link names no other report.
      const other = new URL(`${outputUrl}acme-college-ou6606-20260501-zzzz.html`).pathname;
      const refused = await gate({ request: { method: 'GET', uri: other, querystring: {}, headers: {} } });
      expect(isResponse(refused) && refused.statusCode).toBe(403);
    } finally {
      secrets.restore();
    }
  });

  describe('report-links', () => {
    const STORE = 'arn:aws:cloudfront::111122223333:key-value-store/0123abcd-4567-89ef-0123-456789abcdef';
    // The stub's own type: mockClient's default type does not take this client's.
    let kvs: AwsStub<ServiceInputTypes, ServiceOutputTypes, CloudFrontKeyValueStoreClientResolvedConfig>;
    let store: Map<string, string>;
    let etag: number;

    beforeEach(() => {
      kvs = mockClient(CloudFrontKeyValueStoreClient);
      store = new Map();
      etag = 1;
      kvs.on(DescribeKeyValueStoreCommand).callsFake(() => ({ ETag: `etag-${etag}`, KvsARN: STORE }));
      kvs.on(UpdateKeysCommand).callsFake((input: { IfMatch: string; Puts?: { Key: string; Value: string }[] }) => {
        if (input.IfMatch !== `etag-${etag}`) throw new ConflictException({ message: 'The ETag does not match', $metadata: { httpStatusCode: 409 } });
        for (const put of input.Puts ?? []) store.set(put.Key, put.Value);
        etag++;
        return { ETag: `etag-${etag}` };
      });
    });
    afterEach(() => kvs.restore());

    const revoke = (pause?: () => Promise<void>) =>
      lambdaHandlerOf(handleRevokeReportLinks, {
        ...deps,
        jobs: NO_JOB_STORE,
        runner: NO_JOB_RUNNER,
        reportLinkRevocations: createKvsReportLinkRevocations({ client: new CloudFrontKeyValueStoreClient({ region: 'us-east-1' }), storeArn: STORE, ...(pause === undefined ? {} : { pause }) }),
      });

    it("writes the caller's revocation time where the edge looks, so the report gate refuses every link the caller had", async () => {
      const secrets = mockClient(SecretsManagerClient);
      try {
        secrets.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify(REPORT_KEY) });
        const job = aJob('0d9f5c2b-7e41-4a3c-9b6d-5e8f7a6b5c4d');
        await jobs.create(job);
        const status = lambdaHandlerOf(handleJobStatus, {
          ...deps,
          jobs,
          runner: NO_JOB_RUNNER,
          reportSigningKey: reportSigningKeyFromSecret({ secretId: 's', client: new SecretsManagerClient({ region: 'ca-central-1' }) }),
        });
        const { outputUrl } = JSON.parse((await status(httpEvent('GET', `/api/job-status/${job.id}`, { token: accessToken('user-a') }))).body!) as { outputUrl: string };
        const uri = new URL(`${outputUrl}${job.filename}.html`).pathname;
        const gateWith = () => loadCloudFrontFunction(readFileSync(REPORT_GATE_FILE, 'utf8'), { [`${REPORT_KEY_STORE_PREFIX}${REPORT_KEY.keyId}`]: REPORT_KEY.key, ...Object.fromEntries(store) });
        expect(isResponse(await gateWith()({ request: { method: 'GET', uri, querystring: {}, headers: {} } }))).toBe(false);

        const answer = await revoke()(httpEvent('DELETE', '/api/report-links', { token: accessToken('user-a') }));
        expect(answer.statusCode).toBe(200);
        const { at } = JSON.parse(answer.body!) as { revoked: boolean; at: string };
        // One key, the caller's, with the Unix second of the revocation; written with the store's ETag.
        expect([...store]).toEqual([[`report-revoked-${ownerTagOf('user-a')}`, String(Math.floor(Date.parse(at) / 1000))]]);
        expect(kvs.commandCalls(UpdateKeysCommand).map((call) => call.args[0].input)).toEqual([{ KvsARN: STORE, IfMatch: 'etag-1', Puts: [{ Key: `report-revoked-${ownerTagOf('user-a')}`, Value: store.values().next().value }] }]);
        const refused = await gateWith()({ request: { method: 'GET', uri, querystring: {}, headers: {} } });
        expect(isResponse(refused) && refused.statusCode).toBe(403);
      } finally {
        secrets.restore();
      }
    });

    it('needs a verified token, and writes nothing without one', async () => {
      const handler = revoke();
      expect((await handler(httpEvent('DELETE', '/api/report-links'))).statusCode).toBe(401);
      expect((await handler(httpEvent('DELETE', '/api/report-links', { token: `${accessToken('user-a').slice(0, -4)}AAAA` }))).statusCode).toBe(401);
      expect(kvs.commandCalls(DescribeKeyValueStoreCommand)).toHaveLength(0);
      expect(kvs.commandCalls(UpdateKeysCommand)).toHaveLength(0);
      expect(store.size).toBe(0);
    });

    it("reads the store's ETag again and retries when another write got there first, and answers 503 when it never gets through", async () => {
      // Another write (a key rotation) lands between this one's read of the ETag and its update.
      let raced = false;
      kvs.on(DescribeKeyValueStoreCommand).callsFake(() => {
        const seen = `etag-${etag}`;
        if (!raced) {
          raced = true;
          etag++;
        }
        return { ETag: seen, KvsARN: STORE };
      });
      const pauses: number[] = [];
      const answer = await revoke(async () => void pauses.push(1))(httpEvent('DELETE', '/api/report-links', { token: accessToken('user-b') }));
      expect(answer.statusCode).toBe(200);
      expect(kvs.commandCalls(UpdateKeysCommand).map((call) => call.args[0].input.IfMatch)).toEqual(['etag-1', 'etag-2']);
      expect(store.has(`report-revoked-${ownerTagOf('user-b')}`)).toBe(true);
      expect(pauses).toHaveLength(1);

      // A store that changes before every write: a few tries, then the caller hears it is busy.
      kvs.on(DescribeKeyValueStoreCommand).callsFake(() => ({ ETag: `etag-${etag++}`, KvsARN: STORE }));
      const busy = await revoke(async () => undefined)(httpEvent('DELETE', '/api/report-links', { token: accessToken('user-c') }));
      expect(busy.statusCode).toBe(503);
      expect(JSON.parse(busy.body!)).toMatchObject({ code: 'overloaded', message: 'Your report links could not be ended just now. Try again in a moment.' });
      expect(kvs.commandCalls(UpdateKeysCommand)).toHaveLength(2 + REVOCATION_ATTEMPTS);
    });
  });

  it('reads the signing key again once it has been kept a while, and after a failed read', async () => {
    const secrets = mockClient(SecretsManagerClient);
    try {
      const rotated = { keyId: 'k2def', key: 'Um90YXRlZCByZXBvcnQga2V5IGZvciB0ZXN0cyBvbmx5IQ' };
      secrets
        .on(GetSecretValueCommand)
        .rejectsOnce(new Error('throttled'))
        .resolvesOnce({ SecretString: JSON.stringify(REPORT_KEY) })
        .resolves({ SecretString: JSON.stringify(rotated) });
      let clock = 0;
      const signingKey = reportSigningKeyFromSecret({ secretId: 's', client: new SecretsManagerClient({ region: 'ca-central-1' }), now: () => clock, cacheMs: 1000 });
      await expect(signingKey()).rejects.toThrow('throttled');
      expect(await signingKey()).toEqual(REPORT_KEY);
      clock = 999;
      expect(await signingKey()).toEqual(REPORT_KEY);
      clock = 1000;
      expect(await signingKey()).toEqual(rotated);
      secrets.on(GetSecretValueCommand).resolves({ SecretString: '{"keyId":"k3","key":"short"}' });
      clock = 5000;
      await expect(signingKey()).rejects.toThrow(/at least 32 characters/);
    } finally {
      secrets.restore();
    }
  });

  describe('run-tests', () => {
    let kms: FakeKms;
    let sts: FakeSts;
    let ecs: ECSClient;
    let ecsMock: ReturnType<typeof mockClient>;

    beforeEach(() => {
      kms = fakeKms();
      sts = fakeSts();
      ecs = new ECSClient({ region: 'ca-central-1' });
      ecsMock = mockClient(ecs);
    });
    afterEach(() => {
      kms.restore();
      sts.restore();
      ecsMock.restore();
    });

    const runner = () =>
      createEcsJobRunner({
        ecs,
        kms: kms.client,
        store: jobs,
        cluster: 'arn:aws:ecs:ca-central-1:111122223333:cluster/ctpo',
        taskDefinition: 'arn:aws:ecs:ca-central-1:111122223333:task-definition/ctpo-runner:1',
        containerName: 'runner',
        subnets: ['subnet-a'],
        securityGroups: ['sg-1'],
        credentialsKeyId: 'arn:aws:kms:ca-central-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab',
        sts: sts.client,
        jobRoleArn: 'arn:aws:iam::111122223333:role/ctpo-job',
        history: { previousSucceeded: async () => undefined },
      });
    const body = JSON.stringify({
      USER_NAME: 'qa.bot',
      PASSWORD: 'S3cret!pass',
      CLIENT_URL: 'https://1.1.1.1',
      ORG_UNIT_ID: '6606',
      CLIENT_NAME: 'Acme College',
      MODULES: [1, 2],
    });

    it('records the job, starts its task and answers 202 with the job id', async () => {
      ecsMock.on(RunTaskCommand).resolves({ tasks: [{ taskArn: 'arn:aws:ecs:ca-central-1:111122223333:task/ctpo/abc', lastStatus: 'PROVISIONING' }] });
      const handler = lambdaHandlerOf(handleRunTests, { ...deps, jobs, runner: runner() });
      const result = await handler(httpEvent('POST', '/api/run-tests', { token: accessToken('user-a'), body, base64: true }));
      expect(result.statusCode, result.body).toBe(202);
      const answer = JSON.parse(result.body!) as { taskArn: string; filename: string };
      expect(await jobs.get(answer.taskArn)).toMatchObject({
        owner: 'user-a',
        status: 'PROVISIONING',
        runnerRef: 'arn:aws:ecs:ca-central-1:111122223333:task/ctpo/abc',
        filename: answer.filename,
      });
      expect(ecsMock.commandCalls(RunTaskCommand)).toHaveLength(1);
      expect(JSON.stringify(await dynamo.items(tableName))).not.toContain('S3cret');
    });

    it('answers 503 and leaves the job FAILED when AWS cannot place the task', async () => {
      // The runner logs AWS's refusal for the operator: expected here, so asserted, not printed.
      const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      ecsMock.on(RunTaskCommand).resolves({ failures: [{ reason: 'RESOURCE:FARGATE' }] });
      const handler = lambdaHandlerOf(handleRunTests, { ...deps, jobs, runner: runner() });
      const result = await handler(httpEvent('POST', '/api/run-tests', { token: accessToken('user-a'), body }));
      expect(result.statusCode).toBe(503);
      expect(result.body).not.toContain('S3cret');
      const [job] = await storedJobs();
      expect(job).toMatchObject({ status: 'FAILED' });
      expect(log).toHaveBeenCalledWith(`job ${job!.id}: RunTask refused`, 'RESOURCE:FARGATE', undefined);
    });

    it('starts no more than 3 runs for one user however many requests race, and answers the others 429', async () => {
      ecsMock.on(RunTaskCommand).callsFake(() => ({ tasks: [{ taskArn: `arn:aws:ecs:ca-central-1:111122223333:task/ctpo/${Math.random()}`, lastStatus: 'PROVISIONING' }] }));
      const handler = lambdaHandlerOf(handleRunTests, { ...deps, jobs, runner: runner() });
      const token = accessToken('user-a');
      const results = await Promise.all(Array.from({ length: 25 }, () => handler(httpEvent('POST', '/api/run-tests', { token, body }))));
      expect(results.filter((result) => result.statusCode === 202)).toHaveLength(3);
      const refused = results.filter((result) => result.statusCode === 429);
      expect(refused).toHaveLength(22);
      expect(JSON.parse(refused[0]!.body!)).toEqual({
        code: 'too_many_runs',
        message: 'You already have 3 test runs in progress. Wait for one to finish, then start this one.',
      });
      expect(refused[0]!.headers).toMatchObject({ 'retry-after': '60' });
      expect(await storedJobs()).toHaveLength(3);
      expect(ecsMock.commandCalls(RunTaskCommand)).toHaveLength(3);
    });

    it('starts no more runs than the deployment allows, whoever asks', async () => {
      ecsMock.on(RunTaskCommand).callsFake(() => ({ tasks: [{ taskArn: `arn:aws:ecs:ca-central-1:111122223333:task/ctpo/${Math.random()}`, lastStatus: 'PROVISIONING' }] }));
      const handler = lambdaHandlerOf(handleRunTests, { ...deps, maxActiveRuns: 4, jobs, runner: runner() });
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, index) => handler(httpEvent('POST', '/api/run-tests', { token: accessToken(`user-${index}`), body }))),
      );
      expect(results.filter((result) => result.statusCode === 202)).toHaveLength(4);
      const refused = results.filter((result) => result.statusCode === 429);
      expect(refused).toHaveLength(8);
      expect(JSON.parse(refused[0]!.body!).message).toBe('CTPO is already running 4 test runs, as many as it takes at once. Start this one again in a few minutes.');
      expect(ecsMock.commandCalls(RunTaskCommand)).toHaveLength(4);
    });
  });
});
