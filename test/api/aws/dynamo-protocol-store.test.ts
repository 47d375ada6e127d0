// The DynamoDB protocol store against a real DynamoDB-compatible server (dynalite on loopback): the
// shared contract, then what is DynamoDB's own (the partitions, no expiry).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoProtocolStore, protocolScope } from '../../../api/aws/dynamo-protocol-store.ts';
import { describeProtocolStoreContract } from '../support/protocol-store-contract.ts';
import { startDynalite, type Dynalite } from '../support/dynalite.ts';

let dynamo: Dynalite;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo?.close();
});

async function openStore() {
  const tableName = await dynamo.createProtocolsTable();
  return { tableName, protocols: createDynamoProtocolStore({ client: dynamo.client, tableName }), close: () => undefined };
}

describeProtocolStoreContract('DynamoDB', openStore);

describe('the DynamoDB protocol store', () => {
  it('keeps each user’s protocols, answers and sign-offs in partitions of their own, without expiry', async () => {
    const { tableName, protocols } = await openStore();
    await protocols.put('user-a', { client: 'Acme', protocol: { name: 'P', version: 1, items: [{ id: 'a', title: 'A', manual: true }] }, by: 'qa@example.com', at: '2026-11-28T10:00:00.000Z' });
    await protocols.putAnswer('user-a', { siteUrl: 'https://acme.brightspace.com', orgUnitId: 1 }, { itemId: 'a', itemKey: 'k', status: 'pass', by: 'qa@example.com', at: '2026-11-28T10:00:00.000Z' }, 'job-1');
    const items = await dynamo.items(tableName);
    expect(items.map((item) => item.scope).sort()).toEqual([protocolScope.answers('user-a', { siteUrl: 'https://acme.brightspace.com', orgUnitId: 1 }), protocolScope.protocols('user-a')].sort());
    for (const item of items) expect(item).not.toHaveProperty('expiresAt');
    expect(protocolScope.protocols('a"b')).not.toBe(protocolScope.protocols('a'));
  });
});
