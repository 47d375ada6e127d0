// The key job-status signs report links with on AWS: the current version of the Secrets Manager
// secret the rotation function keeps in step with the edge's KeyValueStore
// (infra/lambda/report-key-rotation.ts). Read once and kept for a few minutes per Lambda instance:
// after a rotation an instance may sign with the previous key for that long, which the store still
// holds for a whole rotation period, so those links keep working.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { MIN_KEY_LENGTH } from '../http/report-capability.ts';
import type { ReportKey } from '../http/report-capability.ts';
import type { ReportSigningKey } from '../http/report-links.ts';
import { ENV, requireEnv } from './settings.ts';
import type { Environment } from './settings.ts';

/** How long an instance keeps the key it read. */
export const SIGNING_KEY_CACHE_MS = 5 * 60_000;

const KEY_ID = /^[a-z0-9]{1,16}$/;

function parseSigningKey(text: string | undefined): ReportKey {
  let value: unknown;
  try {
    value = JSON.parse(text ?? '');
  } catch {
    throw new Error('The report-link key secret is not JSON.');
  }
  const { keyId, key } = (value ?? {}) as Record<string, unknown>;
  if (typeof keyId !== 'string' || !KEY_ID.test(keyId) || typeof key !== 'string' || key.length < MIN_KEY_LENGTH) {
    throw new Error(`The report-link key secret must be { "keyId": 1-16 of [a-z0-9], "key": at least ${MIN_KEY_LENGTH} characters }.`);
  }
  return { keyId, key };
}

export function reportSigningKeyFromSecret(input: {
  secretId: string;
  client: Pick<SecretsManagerClient, 'send'>;
  now?: () => number;
  cacheMs?: number;
}): ReportSigningKey {
  const now = input.now ?? Date.now;
  const cacheMs = input.cacheMs ?? SIGNING_KEY_CACHE_MS;
  let cached: { key: Promise<ReportKey>; readAt: number } | undefined;
  return async () => {
    if (cached === undefined || now() - cached.readAt >= cacheMs) {
      const key = input.client.send(new GetSecretValueCommand({ SecretId: input.secretId })).then((answer) => parseSigningKey(answer.SecretString));
      cached = { key, readAt: now() };
    }
    const current = cached;
    try {
      return await current.key;
    } catch (error) {
      // A failed read is not kept: the next request tries again.
      if (cached === current) cached = undefined;
      throw error;
    }
  };
}

let secrets: SecretsManagerClient | undefined;

export function reportSigningKeyFromEnv(env: Environment): ReportSigningKey {
  return reportSigningKeyFromSecret({ secretId: requireEnv(env, ENV.reportKeySecret), client: (secrets ??= new SecretsManagerClient({})) });
}
