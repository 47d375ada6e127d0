// The report-key rotation against Secrets Manager and the CloudFront KeyValueStore, faked at the SDK
// boundary with their versioning and ETag rules; and the store client's signing, checked on the wire.
import { Readable } from 'node:stream';
import { CloudFrontKeyValueStoreClient, DescribeKeyValueStoreCommand, GetKeyCommand, ListKeysCommand, UpdateKeysCommand } from '@aws-sdk/client-cloudfront-keyvaluestore';
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signReportCapability, verifyReportCapability } from '../../api/http/report-capability.ts';
import { handler, rotate } from '../../infra/lambda/report-key-rotation.ts';
import type { RotationDeps, RotationEvent } from '../../infra/lambda/report-key-rotation.ts';

const SECRET = 'arn:aws:secretsmanager:ca-central-1:111122223333:secret:ctpo-report-key-AbCdEf';
const STORE = 'arn:aws:cloudfront::111122223333:key-value-store/0a1b2c3d-1111-2222-3333-444455556666';
const INITIAL = { keyId: 'k0', key: 'i'.repeat(64) };

/** A secret with versions and stages, and a key value store with an ETag, as the services keep them. */
function fakeServices() {
  const versions = new Map<string, { text: string; stages: string[] }>([['v0', { text: JSON.stringify(INITIAL), stages: ['AWSCURRENT'] }]]);
  const store = new Map<string, string>([['unrelated', 'kept']]);
  let etag = 1;
  const secrets = mockClient(SecretsManagerClient);
  const kvs = mockClient(CloudFrontKeyValueStoreClient);
  const versionAt = (stage?: string, id?: string) => [...versions.entries()].find(([vid, v]) => (id === undefined || vid === id) && (stage === undefined || v.stages.includes(stage)));
  secrets.on(DescribeSecretCommand).callsFake(() => ({ VersionIdsToStages: Object.fromEntries([...versions].map(([id, v]) => [id, [...v.stages]])) }));
  secrets.on(GetSecretValueCommand).callsFake((input: { VersionStage?: string; VersionId?: string }) => {
    const found = versionAt(input.VersionStage, input.VersionId);
    if (found === undefined) throw new ResourceNotFoundException({ message: 'no such version', $metadata: {} });
    return { SecretString: found[1].text, VersionId: found[0] };
  });
  secrets.on(PutSecretValueCommand).callsFake((input: { ClientRequestToken: string; SecretString: string; VersionStages: string[] }) => {
    for (const v of versions.values()) v.stages = v.stages.filter((stage) => !input.VersionStages.includes(stage));
    versions.set(input.ClientRequestToken, { text: input.SecretString, stages: input.VersionStages });
    return {};
  });
  secrets.on(UpdateSecretVersionStageCommand).callsFake((input: { VersionStage: string; MoveToVersionId: string; RemoveFromVersionId?: string }) => {
    const current = versionAt(input.VersionStage);
    if (current !== undefined && current[0] !== input.RemoveFromVersionId) throw new Error('RemoveFromVersionId must name the version that has the stage');
    for (const v of versions.values()) v.stages = v.stages.filter((stage) => stage !== input.VersionStage && !(input.VersionStage === 'AWSCURRENT' && stage === 'AWSPREVIOUS'));
    if (current !== undefined) current[1].stages.push('AWSPREVIOUS');
    versions.get(input.MoveToVersionId)!.stages = versions.get(input.MoveToVersionId)!.stages.filter((stage) => stage !== 'AWSPENDING').concat(input.VersionStage);
    return {};
  });
  kvs.on(DescribeKeyValueStoreCommand).callsFake(() => ({ ETag: String(etag), ItemCount: store.size }));
  kvs.on(ListKeysCommand).callsFake(() => ({ Items: [...store].map(([Key, Value]) => ({ Key, Value })) }));
  kvs.on(GetKeyCommand).callsFake((input: { Key: string }) => ({ Key: input.Key, Value: store.get(input.Key) }));
  kvs.on(UpdateKeysCommand).callsFake((input: { IfMatch: string; Puts?: { Key: string; Value: string }[]; Deletes?: { Key: string }[] }) => {
    if (input.IfMatch !== String(etag)) throw new Error('PreconditionFailed: stale ETag');
    for (const { Key, Value } of input.Puts ?? []) store.set(Key, Value);
    for (const { Key } of input.Deletes ?? []) store.delete(Key);
    etag += 1;
    return { ETag: String(etag) };
  });
  const restore = () => {
    secrets.restore();
    kvs.restore();
  };
  const current = () => JSON.parse(versionAt('AWSCURRENT')![1].text) as { keyId: string; key: string };
  return { versions, store, restore, current };
}

describe('report key rotation', () => {
  let services: ReturnType<typeof fakeServices>;
  let deps: RotationDeps;
  let clock: number;

  beforeEach(() => {
    services = fakeServices();
    clock = Date.parse('2026-05-12T10:00:00Z');
    let n = 0;
    deps = {
      secrets: new SecretsManagerClient({ region: 'ca-central-1' }),
      store: new CloudFrontKeyValueStoreClient({ region: 'ca-central-1' }),
      storeArn: STORE,
      now: () => new Date(clock),
      random: () => `${'r'.repeat(60)}${String((n += 1)).padStart(4, '0')}`,
    };
  });
  afterEach(() => services.restore());

  /** One whole rotation, as Secrets Manager drives it, then the 30 days until the next. */
  async function rotation(token: string): Promise<void> {
    for (const Step of ['createSecret', 'setSecret', 'testSecret', 'finishSecret'] as const) {
      await rotate({ Step, SecretId: SECRET, ClientRequestToken: token }, { ...deps, secrets: withKnownVersion(deps.secrets, token) });
    }
    clock += 30 * 86_400_000;
  }

  /** Secrets Manager lists the new version (with no stage yet) from the moment rotation starts. */
  function withKnownVersion(client: SecretsManagerClient, token: string): SecretsManagerClient {
    const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
    return {
      send: async (command: unknown) => {
        const answer = (await send(command)) as { VersionIdsToStages?: Record<string, string[]> };
        if (command instanceof DescribeSecretCommand) answer.VersionIdsToStages = { [token]: [], ...answer.VersionIdsToStages };
        return answer;
      },
    } as unknown as SecretsManagerClient;
  }

  it('puts the new key beside the current one in the store, then makes it current', async () => {
    await rotation('v1');
    const first = services.current();
    expect(first.keyId).toMatch(/^k[a-z0-9]{1,15}$/);
    expect(first.keyId).not.toBe(INITIAL.keyId);
    expect(Object.fromEntries(services.store)).toEqual({ unrelated: 'kept', 'report-key-k0': INITIAL.key, [`report-key-${first.keyId}`]: first.key });
    expect(services.versions.get('v0')!.stages).toEqual(['AWSPREVIOUS']);
  });

  it('keeps links signed just before a rotation working, and retires the key before that', async () => {
    const filename = 'acme-college-ou6606-20260512t101500z-k3j9x2m4q8w7z5t1';
    // Whether the link's key is still live, at a time the link itself has not expired (links last an hour).
    const sign = (key: { keyId: string; key: string }) => signReportCapability({ filename, issuedAt: new Date('2026-01-01T00:00:00Z'), expiresAt: new Date('2026-01-01T01:00:00Z'), ...key });
    const opens = (capability: string) =>
      verifyReportCapability({ capability, filename, now: new Date('2026-01-01T00:30:00Z'), keyOf: (keyId) => services.store.get(`report-key-${keyId}`) }).ok;

    await rotation('v1');
    const first = services.current();
    const linkBefore = sign(first);
    await rotation('v2');
    const second = services.current();
    expect(opens(linkBefore)).toBe(true);
    expect(opens(sign(second))).toBe(true);
    await rotation('v3');
    expect(opens(linkBefore)).toBe(false);
    expect(opens(sign(second))).toBe(true);
    expect([...services.store.keys()].filter((key) => key.startsWith('report-key-'))).toHaveLength(2);
  });

  it('is safe to retry: a step that ran already changes nothing', async () => {
    const client = withKnownVersion(deps.secrets, 'v1');
    const run = (Step: RotationEvent['Step']) => rotate({ Step, SecretId: SECRET, ClientRequestToken: 'v1' }, { ...deps, secrets: client });
    await run('createSecret');
    const pending = services.versions.get('v1')!.text;
    await run('createSecret');
    expect(services.versions.get('v1')!.text).toBe(pending);
    await run('setSecret');
    await run('setSecret');
    await run('testSecret');
    await run('finishSecret');
    await run('finishSecret');
    expect(services.current()).toEqual(JSON.parse(pending));
  });

  it('fails the test step while the store does not hold the new key', async () => {
    const client = withKnownVersion(deps.secrets, 'v1');
    await rotate({ Step: 'createSecret', SecretId: SECRET, ClientRequestToken: 'v1' }, { ...deps, secrets: client });
    await expect(rotate({ Step: 'testSecret', SecretId: SECRET, ClientRequestToken: 'v1' }, { ...deps, secrets: client })).rejects.toThrow(/does not hold report key/);
  });

  it('refuses a secret that is not a report key', async () => {
    services.versions.set('v0', { text: JSON.stringify({ keyId: 'K 0', key: 'short' }), stages: ['AWSCURRENT'] });
    const client = withKnownVersion(deps.secrets, 'v1');
    await expect(rotate({ Step: 'createSecret', SecretId: SECRET, ClientRequestToken: 'v1' }, { ...deps, secrets: client })).rejects.toThrow(/keyId/);
  });

  it('says when the stack did not give it the store', async () => {
    await expect(handler({ Step: 'createSecret', SecretId: SECRET, ClientRequestToken: 'v1' })).rejects.toThrow(/CTPO_REPORT_KEY_STORE_ARN is not set/);
  });
});

describe('the key value store client', () => {
  it('signs with SigV4a, which the store requires, without the native CRT', async () => {
    await import('../../infra/lambda/report-key-rotation.ts');
    const seen: { host: string; authorization: string }[] = [];
    // The network boundary: the request as it would go on the wire, answered here.
    const requestHandler = {
      handle: async (request: { hostname: string; headers: Record<string, string> }) => {
        seen.push({ host: request.hostname, authorization: request.headers.authorization ?? '' });
        const body = Buffer.from(JSON.stringify({ ETag: '1', KvsARN: STORE, ItemCount: 0, TotalSizeInBytes: 0, Created: 0 }));
        return { response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: Readable.from([body]) } };
      },
    };
    const client = new CloudFrontKeyValueStoreClient({
      region: 'ca-central-1',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
      requestHandler,
    });
    await client.send(new DescribeKeyValueStoreCommand({ KvsARN: STORE }));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.host).toBe('111122223333.cloudfront-kvs.global.api.aws');
    expect(seen[0]!.authorization).toMatch(/^AWS4-ECDSA-P256-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/cloudfront-keyvaluestore\/aws4_request/);
  });
});
