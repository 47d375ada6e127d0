// A stand-in for KMS behind the real SDK client: Encrypt hands out an opaque ciphertext, and Decrypt
// gives the plaintext back only with the same key and the same encryption context, as KMS does.
import { DecryptCommand, EncryptCommand, InvalidCiphertextException, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';

export interface FakeKms {
  client: KMSClient;
  mock: ReturnType<typeof mockClient>;
  restore(): void;
}

export function fakeKms(): FakeKms {
  const client = new KMSClient({ region: 'ca-central-1' });
  const mock = mockClient(client);
  const sealed = new Map<string, { keyId: string; context: string; plaintext: Uint8Array }>();
  const contextOf = (context: Record<string, string> | undefined) => JSON.stringify(Object.entries(context ?? {}).sort());

  mock.on(EncryptCommand).callsFake((input) => {
    const ciphertext = new TextEncoder().encode(`sealed-${sealed.size + 1}-${crypto.randomUUID()}`);
    sealed.set(Buffer.from(ciphertext).toString('base64'), {
      keyId: input.KeyId,
      context: contextOf(input.EncryptionContext),
      plaintext: new Uint8Array(input.Plaintext),
    });
    return { CiphertextBlob: ciphertext, KeyId: input.KeyId };
  });
  mock.on(DecryptCommand).callsFake((input) => {
    const entry = sealed.get(Buffer.from(input.CiphertextBlob).toString('base64'));
    if (entry === undefined || entry.keyId !== input.KeyId || entry.context !== contextOf(input.EncryptionContext)) {
      throw new InvalidCiphertextException({ message: '', $metadata: {} });
    }
    return { Plaintext: entry.plaintext, KeyId: entry.keyId };
  });
  return { client, mock, restore: () => mock.restore() };
}
