// The per-user limit of /api/toc on AWS, against dynalite: however many loads one user starts at
// once, at most the limit run; a load that ends gives its slot back; other users are counted apart;
// and a slot whose instance died is free again once its lease has run out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoConcurrencyLimit } from '../../../api/aws/dynamo-concurrency-limit.ts';
import { startDynalite } from '../support/dynalite.ts';
import type { Dynalite } from '../support/dynalite.ts';

let dynamo: Dynalite;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo?.close();
});

describe('the DynamoDB per-caller limit', () => {
  it('lets at most the limit of one caller’s loads run under a burst, and gives a slot back when one ends', async () => {
    const clock = { now: new Date('2026-11-28T10:00:00Z') };
    const limit = createDynamoConcurrencyLimit({ client: dynamo.client, tableName: await dynamo.createJobsTable(), kind: 'toc', max: 2, leaseMs: 35_000, now: () => clock.now });
    const burst = await Promise.all(Array.from({ length: 12 }, () => limit.acquire('user-a')));
    const granted = burst.filter((release) => release !== undefined);
    expect(granted).toHaveLength(2);
    expect(await limit.acquire('user-b')).toBeDefined();
    await granted[0]!();
    await granted[0]!();
    const next = await limit.acquire('user-a');
    expect(next).toBeDefined();
    expect(await limit.acquire('user-a')).toBeUndefined();
    // The instances holding them died: once the lease has run out, the caller starts afresh.
    clock.now = new Date(clock.now.getTime() + 36_000);
    expect(await limit.acquire('user-a')).toBeDefined();
    expect(await limit.acquire('user-a')).toBeDefined();
    expect(await limit.acquire('user-a')).toBeUndefined();
  });
});
