// A run's Brightspace credentials on their way from the API to the Fargate task: encrypted with KMS
// under an encryption context that names the job, so only ciphertext ever appears in the RunTask
// overrides, ECS's task description and its events. Only the task's role may decrypt. The run's AWS
// session (job-session.ts) travels the same way, bound to the same job.
import type { KMSClient } from '@aws-sdk/client-kms';
import { DecryptCommand, EncryptCommand } from '@aws-sdk/client-kms';
import type { BrightspaceCredentials } from '../jobs/types.ts';
import type { JobSession } from './job-session.ts';
import { CREDENTIALS_CONTEXT_KEY } from './settings.ts';

/** A JSON value encrypted for one job: it decrypts only with that job's id as the context. */
async function sealForJob(kms: KMSClient, keyId: string, jobId: string, value: object): Promise<string> {
  const plaintext = new TextEncoder().encode(JSON.stringify(value));
  const { CiphertextBlob } = await kms.send(new EncryptCommand({ KeyId: keyId, Plaintext: plaintext, EncryptionContext: { [CREDENTIALS_CONTEXT_KEY]: jobId } }));
  if (CiphertextBlob === undefined) throw new Error('KMS returned no ciphertext.');
  return Buffer.from(CiphertextBlob).toString('base64');
}

/** The object sealed for the job with these string fields, or an error that does not quote it. */
async function openForJob<Field extends string>(kms: KMSClient, keyId: string, jobId: string, ciphertext: string, fields: readonly Field[], what: string): Promise<Record<Field, string>> {
  const { Plaintext } = await kms.send(
    new DecryptCommand({ KeyId: keyId, CiphertextBlob: Buffer.from(ciphertext, 'base64'), EncryptionContext: { [CREDENTIALS_CONTEXT_KEY]: jobId } }),
  );
  if (Plaintext === undefined) throw new Error('KMS returned no plaintext.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(Plaintext));
  } catch {
    // JSON.parse quotes the text it failed on, and that text holds the secret.
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || fields.some((field) => typeof (parsed as Record<string, unknown>)[field] !== 'string')) {
    throw new Error(`The decrypted ${what} are not in the expected shape.`);
  }
  // Only the expected fields: nothing else that was sealed goes on.
  return Object.fromEntries(fields.map((field) => [field, (parsed as Record<Field, string>)[field]])) as Record<Field, string>;
}

export function encryptCredentials(kms: KMSClient, keyId: string, jobId: string, credentials: BrightspaceCredentials): Promise<string> {
  return sealForJob(kms, keyId, jobId, { username: credentials.username, password: credentials.password });
}

export function decryptCredentials(kms: KMSClient, keyId: string, jobId: string, ciphertext: string): Promise<BrightspaceCredentials> {
  return openForJob(kms, keyId, jobId, ciphertext, ['username', 'password'], 'credentials');
}

/** The job's AWS session, encrypted for its task alone, as the credentials are. */
export function encryptJobSession(kms: KMSClient, keyId: string, jobId: string, session: JobSession): Promise<string> {
  return sealForJob(kms, keyId, jobId, { accessKeyId: session.accessKeyId, secretAccessKey: session.secretAccessKey, sessionToken: session.sessionToken, expiration: session.expiration });
}

export function decryptJobSession(kms: KMSClient, keyId: string, jobId: string, ciphertext: string): Promise<JobSession> {
  return openForJob(kms, keyId, jobId, ciphertext, ['accessKeyId', 'secretAccessKey', 'sessionToken', 'expiration'], 'session keys');
}
