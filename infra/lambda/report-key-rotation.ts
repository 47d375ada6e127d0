// Secrets Manager rotation for the report-link signing key. The secret (JSON `{ keyId, key }`) is
// what the job-status function signs report links with (api/http/report-capability.ts); the
// CloudFront KeyValueStore is what the reports behaviour's function checks them against
// (infra/edge/report-gate.js). Rotation runs Secrets Manager's four steps:
//   createSecret  a new key with a new id, as the AWSPENDING version
//   setSecret     the store gets the new key beside the current one, and loses any older key
//   testSecret    the store gives the new key back
//   finishSecret  the new key becomes AWSCURRENT
// So the store always holds the key job-status signs with, and for one rotation period also the
// one before: a link handed out just before a rotation keeps working until it expires.
import { randomBytes } from 'node:crypto';
import { CloudFrontKeyValueStoreClient, DescribeKeyValueStoreCommand, GetKeyCommand, ListKeysCommand, UpdateKeysCommand } from '@aws-sdk/client-cloudfront-keyvaluestore';
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';
// The KeyValueStore API is signed with SigV4a; this registers the JavaScript signer for it.
import '@aws-sdk/signature-v4a';
import { MIN_KEY_LENGTH, REPORT_KEY_STORE_PREFIX } from '../../api/http/report-capability.ts';
import type { ReportKey } from '../../api/http/report-capability.ts';

/** The store's ARN, set by the stack. */
export const KEY_STORE_ENV = 'CTPO_REPORT_KEY_STORE_ARN';

export interface RotationEvent {
  Step: 'createSecret' | 'setSecret' | 'testSecret' | 'finishSecret';
  SecretId: string;
  ClientRequestToken: string;
}

export interface RotationDeps {
  secrets: SecretsManagerClient;
  store: CloudFrontKeyValueStoreClient;
  storeArn: string;
  now?: () => Date;
  random?: () => string;
}

const KEY_ID = /^[a-z0-9]{1,16}$/;

function parseKey(text: string | undefined, what: string): ReportKey {
  let value: unknown;
  try {
    value = JSON.parse(text ?? '');
  } catch {
    throw new Error(`The ${what} report key is not JSON.`);
  }
  const { keyId, key } = (value ?? {}) as Record<string, unknown>;
  if (typeof keyId !== 'string' || !KEY_ID.test(keyId) || typeof key !== 'string' || key.length < MIN_KEY_LENGTH) {
    throw new Error(`The ${what} report key must be { "keyId": 1-16 of [a-z0-9], "key": at least ${MIN_KEY_LENGTH} characters }.`);
  }
  return { keyId, key };
}

async function keyAt(deps: RotationDeps, secretId: string, version: { stage: 'AWSCURRENT' } | { stage: 'AWSPENDING'; id: string }): Promise<ReportKey> {
  const answer = await deps.secrets.send(
    new GetSecretValueCommand({ SecretId: secretId, VersionStage: version.stage, ...(version.stage === 'AWSPENDING' ? { VersionId: version.id } : {}) }),
  );
  return parseKey(answer.SecretString, version.stage === 'AWSCURRENT' ? 'current' : 'pending');
}

const storeKeyOf = (keyId: string): string => `${REPORT_KEY_STORE_PREFIX}${keyId}`;

export async function rotate(event: RotationEvent, deps: RotationDeps): Promise<void> {
  const { SecretId: secretId, ClientRequestToken: token } = event;
  const description = await deps.secrets.send(new DescribeSecretCommand({ SecretId: secretId }));
  const stages = description.VersionIdsToStages?.[token];
  if (stages === undefined) throw new Error(`Secret version ${token} does not exist: nothing to rotate to.`);

  switch (event.Step) {
    case 'createSecret': {
      try {
        await keyAt(deps, secretId, { stage: 'AWSPENDING', id: token });
        return;
      } catch (error) {
        if (!(error instanceof ResourceNotFoundException)) throw error;
      }
      const current = await keyAt(deps, secretId, { stage: 'AWSCURRENT' });
      // A time-based id: new ones sort after old ones and never repeat the current one.
      let keyId = `k${(deps.now?.() ?? new Date()).getTime().toString(36)}`;
      if (keyId === current.keyId) keyId = `${keyId}b`;
      const key = deps.random?.() ?? randomBytes(48).toString('base64url');
      await deps.secrets.send(
        new PutSecretValueCommand({ SecretId: secretId, ClientRequestToken: token, SecretString: JSON.stringify({ keyId, key }), VersionStages: ['AWSPENDING'] }),
      );
      return;
    }
    case 'setSecret': {
      const current = await keyAt(deps, secretId, { stage: 'AWSCURRENT' });
      const pending = await keyAt(deps, secretId, { stage: 'AWSPENDING', id: token });
      const live = new Set([storeKeyOf(current.keyId), storeKeyOf(pending.keyId)]);
      const stale: string[] = [];
      let nextToken: string | undefined;
      do {
        const page = await deps.store.send(new ListKeysCommand({ KvsARN: deps.storeArn, ...(nextToken === undefined ? {} : { NextToken: nextToken }) }));
        for (const item of page.Items ?? []) {
          if (item.Key?.startsWith(REPORT_KEY_STORE_PREFIX) && !live.has(item.Key)) stale.push(item.Key);
        }
        nextToken = page.NextToken;
      } while (nextToken !== undefined);
      const { ETag } = await deps.store.send(new DescribeKeyValueStoreCommand({ KvsARN: deps.storeArn }));
      await deps.store.send(
        new UpdateKeysCommand({
          KvsARN: deps.storeArn,
          IfMatch: ETag,
          Puts: [current, pending].map(({ keyId, key }) => ({ Key: storeKeyOf(keyId), Value: key })),
          ...(stale.length === 0 ? {} : { Deletes: stale.map((Key) => ({ Key })) }),
        }),
      );
      return;
    }
    case 'testSecret': {
      const pending = await keyAt(deps, secretId, { stage: 'AWSPENDING', id: token });
      const stored = await deps.store.send(new GetKeyCommand({ KvsARN: deps.storeArn, Key: storeKeyOf(pending.keyId) }));
      if (stored.Value !== pending.key) throw new Error(`The key store does not hold report key ${pending.keyId} yet.`);
      return;
    }
    case 'finishSecret': {
      if (stages.includes('AWSCURRENT')) return;
      const current = Object.entries(description.VersionIdsToStages ?? {}).find(([, versionStages]) => versionStages.includes('AWSCURRENT'))?.[0];
      await deps.secrets.send(
        new UpdateSecretVersionStageCommand({
          SecretId: secretId,
          VersionStage: 'AWSCURRENT',
          MoveToVersionId: token,
          ...(current === undefined ? {} : { RemoveFromVersionId: current }),
        }),
      );
      return;
    }
    default:
      throw new Error(`Unknown rotation step ${String((event as { Step: unknown }).Step)}.`);
  }
}

let clients: RotationDeps | undefined;

export async function handler(event: RotationEvent): Promise<void> {
  const storeArn = process.env[KEY_STORE_ENV];
  if (storeArn === undefined || storeArn === '') throw new Error(`${KEY_STORE_ENV} is not set: this code runs only in the CTPO stack, which sets it.`);
  clients ??= { secrets: new SecretsManagerClient({}), store: new CloudFrontKeyValueStoreClient({}), storeArn };
  await rotate(event, clients);
}
