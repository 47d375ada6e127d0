// A run's Brightspace credentials on their way from the API to the Fargate task: encrypted with KMS
// under an encryption context that names the job, so only ciphertext ever appears in the RunTask
// overrides, ECS's task description and its events. Only the task's role may decrypt. The run's AWS
// session (job-session.ts) travels the same way, bound to the same job.
import type { KMSClient } from '@aws-sdk/client-kms';
import { DecryptCommand, EncryptCommand } from '@aws-sdk/client-kms';
import type { BrightspaceCredentials } from '../jobs/types.ts';
import type { JobSession } from './job-session.ts';
import { CREDENTIALS_CONTEXT_KEY } from './settings.ts';

export async function encryptCredentials(
  kms: KMSClient,
  keyId: string,
  jobId: string,
  credentials: BrightspaceCredentials,
): Promise<string> {
  const plaintext = new TextEncoder().encode(JSON.stringify({ username: credentials.username, password: credentials.password }));
  const { CiphertextBlob } = await kms.send(
    new EncryptCommand({ KeyId: keyId, Plaintext: plaintext, EncryptionContext: { [CREDENTIALS_CONTEXT_KEY]: jobId } }),
  );
  if (CiphertextBlob === undefined) throw new Error('KMS returned no ciphertext.');
  return Buffer.from(CiphertextBlob).toString('base64');
}

export async function decryptCredentials(
  kms: KMSClient,
  keyId: string,
  jobId: string,
  ciphertext: string,
): Promise<BrightspaceCredentials> {
  const { Plaintext } = await kms.send(
    new DecryptCommand({
      KeyId: keyId,
      CiphertextBlob: Buffer.from(ciphertext, 'base64'),
      EncryptionContext: { [CREDENTIALS_CONTEXT_KEY]: jobId },
    }),
  );
  if (Plaintext === undefined) throw new Error('KMS returned no plaintext.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(Plaintext));
  } catch {
    // JSON.parse quotes the text it failed on, and that text holds the password.
    parsed = undefined;
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    typeof (parsed as Record<string, unknown>).username !== 'string' ||
    typeof (parsed as Record<string, unknown>).password !== 'string'
  ) {
    throw new Error('The decrypted credentials are not in the expected shape.');
  }
  const { username, password } = parsed as BrightspaceCredentials;
  return { username, password };
}

/** The job's AWS session, encrypted for its task alone, as the credentials are. */
export async function encryptJobSession(kms: KMSClient, keyId: string, jobId: string, session: JobSession): Promise<string> {
  const plaintext = new TextEncoder().encode(JSON.stringify(session));
  const { CiphertextBlob } = await kms.send(new EncryptCommand({ KeyId: keyId, Plaintext: plaintext, EncryptionContext: { [CREDENTIALS_CONTEXT_KEY]: jobId } }));
  if (CiphertextBlob === undefined) throw new Error('KMS returned no ciphertext.');
  return Buffer.from(CiphertextBlob).toString('base64');
}

export async function decryptJobSession(kms: KMSClient, keyId: string, jobId: string, ciphertext: string): Promise<JobSession> {
  const { Plaintext } = await kms.send(
    new DecryptCommand({ KeyId: keyId, CiphertextBlob: Buffer.from(ciphertext, 'base64'), EncryptionContext: { [CREDENTIALS_CONTEXT_KEY]: jobId } }),
  );
  if (Plaintext === undefined) throw new Error('KMS returned no plaintext.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(Plaintext));
  } catch {
    // As above: the text holds the session's secret.
    parsed = undefined;
  }
  const fields = ['accessKeyId', 'secretAccessKey', 'sessionToken', 'expiration'] as const;
  if (typeof parsed !== 'object' || parsed === null || fields.some((field) => typeof (parsed as Record<string, unknown>)[field] !== 'string')) {
    throw new Error('The decrypted session is not in the expected shape.');
  }
  const session = parsed as JobSession;
  return { accessKeyId: session.accessKeyId, secretAccessKey: session.secretAccessKey, sessionToken: session.sessionToken, expiration: session.expiration };
}
