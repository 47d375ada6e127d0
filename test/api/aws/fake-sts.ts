// A stand-in for STS behind the real SDK client: AssumeRole hands out a session whose keys name the
// call, and keeps each call's role, tags and duration for the test to read.
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import type { AssumeRoleCommandInput } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';

export interface FakeSts {
  client: STSClient;
  mock: ReturnType<typeof mockClient>;
  /** Each AssumeRole asked, in order. */
  calls(): AssumeRoleCommandInput[];
  restore(): void;
}

export const SESSION_EXPIRATION = new Date('2026-11-28T07:00:00Z');

export function fakeSts(): FakeSts {
  const client = new STSClient({ region: 'ca-central-1' });
  const mock = mockClient(client);
  const calls: AssumeRoleCommandInput[] = [];
  mock.on(AssumeRoleCommand).callsFake((input: AssumeRoleCommandInput) => {
    calls.push(input);
    return {
      Credentials: { AccessKeyId: `ASIA${calls.length}`, SecretAccessKey: `session-secret-${calls.length}`, SessionToken: `session-token-${calls.length}`, Expiration: SESSION_EXPIRATION },
    };
  });
  return { client, mock, calls: () => calls, restore: () => mock.restore() };
}
