// A run's Brightspace credentials on their way from the API to the Fargate task: encrypted with KMS
// under an encryption context that names the job, so only ciphertext ever appears in the RunTask
// overrides, ECS's task description and its events. Only the task's role may decrypt.
import type { KMSClient } from '@aws-sdk/client-kms';
import { DecryptCommand, EncryptCommand } from '@aws-sdk/client-kms';
import type { BrightspaceCredentials } from '../jobs/types.ts';
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
