import { DecryptCommand, EncryptCommand } from '@aws-sdk/client-kms';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decryptCredentials, encryptCredentials } from '../../../api/aws/credentials-cipher.ts';
import { fakeKms } from './fake-kms.ts';
import type { FakeKms } from './fake-kms.ts';

const KEY = 'arn:aws:kms:ca-central-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const credentials = { username: 'qa.bot', password: 'S3cret!pass' };

describe('the credentials cipher', () => {
  let kms: FakeKms;
  beforeEach(() => {
    kms = fakeKms();
  });
  afterEach(() => kms.restore());

  it('gives back the credentials only for the job they were encrypted for', async () => {
    const ciphertext = await encryptCredentials(kms.client, KEY, 'job-1', credentials);
    expect(ciphertext).not.toContain('S3cret');
    expect(Buffer.from(ciphertext, 'base64').toString()).not.toContain('S3cret');
    expect(await decryptCredentials(kms.client, KEY, 'job-1', ciphertext)).toEqual(credentials);
    await expect(decryptCredentials(kms.client, KEY, 'job-2', ciphertext)).rejects.toThrow();
  });

  it('binds the ciphertext to the job through the encryption context', async () => {
    await encryptCredentials(kms.client, KEY, 'job-1', credentials);
    const [call] = kms.mock.commandCalls(EncryptCommand);
    expect(call?.args[0].input).toMatchObject({ KeyId: KEY, EncryptionContext: { 'ctpo-job-id': 'job-1' } });
  });

  it('never repeats a malformed plaintext in its error', async () => {
    kms.mock.on(DecryptCommand).resolves({ Plaintext: new TextEncoder().encode('{"username":"a","password":S3cret!pass') });
    const failure = decryptCredentials(kms.client, KEY, 'job-1', 'AQ==');
    await expect(failure).rejects.toThrow('The decrypted credentials are not in the expected shape.');
    await failure.catch((error: Error) => expect(`${error.message}${error.stack ?? ''}`).not.toContain('S3cret'));
    kms.mock.on(DecryptCommand).resolves({ Plaintext: new TextEncoder().encode('{"username":"a"}') });
    await expect(decryptCredentials(kms.client, KEY, 'job-1', 'AQ==')).rejects.toThrow(/expected shape/);
  });
});
