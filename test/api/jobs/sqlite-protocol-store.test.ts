// The SQLite protocol store against the shared contract, and kept across a restart (a new connection).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteJobStore } from '../../../api/jobs/sqlite-job-store.ts';
import { openSqliteProtocolStore } from '../../../api/jobs/sqlite-protocol-store.ts';
import { describeProtocolStoreContract } from '../support/protocol-store-contract.ts';

function openStore() {
  const dir = mkdtempSync(join(tmpdir(), 'ctpo-protocols-'));
  const protocols = openSqliteProtocolStore({ path: join(dir, 'jobs.sqlite') });
  return { dir, protocols, close: () => (protocols.close(), rmSync(dir, { recursive: true, force: true })) };
}

describeProtocolStoreContract('SQLite', openStore);

describe('the SQLite protocol store', () => {
  it('shares the job database and keeps what was saved after a restart', async () => {
    const { dir, protocols, close } = openStore();
    const jobs = openSqliteJobStore({ path: join(dir, 'jobs.sqlite') });
    const protocol = { name: 'Launch', version: 1, items: [{ id: 'contact', title: 'Contact', manual: true }] };
    await protocols.put('user-a', { client: 'Acme', protocol, by: 'qa@example.com', at: '2026-11-28T10:00:00.000Z' });
    protocols.close();
    const again = openSqliteProtocolStore({ path: join(dir, 'jobs.sqlite') });
    expect(await again.get('user-a', 'acme')).toEqual({ client: 'Acme', protocol, by: 'qa@example.com', at: '2026-11-28T10:00:00.000Z' });
    again.close();
    jobs.close();
    close();
  });
});
