// The promises of the protocol store (api/jobs/types.ts: ProtocolStore), run against each
// implementation: one protocol per user and client label (any case or spacing), replaced when saved
// again; answers per user and course, the latest per item; sign-offs per user and run.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProtocolStore } from '../../../api/jobs/types.ts';
import type { Protocol } from '../../../api/protocol/protocol-schema.ts';

export interface OpenedProtocolStore {
  protocols: ProtocolStore;
  close(): void;
}

const protocol = (version: number): Protocol => ({ name: 'Launch', version, items: [{ id: 'links', title: 'Links work', checks: ['link.broken'], weight: 3 }, { id: 'contact', title: 'Contact is right', manual: true }] });
const course = { siteUrl: 'https://acme.brightspace.com', orgUnitId: 6606 };
const answer = (status: 'pass' | 'fail' | 'n/a', at: string, note?: string) => ({ itemId: 'contact', itemKey: 'k1', status, ...(note === undefined ? {} : { note }), by: 'qa@example.com', at });

export function describeProtocolStoreContract(name: string, open: () => OpenedProtocolStore | Promise<OpenedProtocolStore>): void {
  describe(`${name}: the protocol store contract`, () => {
    let opened: OpenedProtocolStore;
    let store: ProtocolStore;
    beforeEach(async () => {
      opened = await open();
      store = opened.protocols;
    });
    afterEach(() => opened.close());

    it('keeps one protocol per user and client label, found in any case or spacing, replaced when saved again', async () => {
      await store.put('user-a', { client: 'Demo College', protocol: protocol(1), by: 'qa@example.com', at: '2026-11-28T10:00:00.000Z' });
      await store.put('user-a', { client: ' demo  COLLEGE ', protocol: protocol(2), by: 'qa@example.com', at: '2026-11-28T11:00:00.000Z' });
      await store.put('user-a', { client: 'Acme', protocol: protocol(1), by: 'qa@example.com', at: '2026-11-28T12:00:00.000Z' });
      expect((await store.get('user-a', 'Demo College'))?.protocol.version).toBe(2);
      expect((await store.list('user-a')).map((stored) => [stored.client, stored.protocol.version])).toEqual([
        ['Acme', 1],
        ['demo  COLLEGE', 2],
      ]);
      expect(await store.get('user-b', 'Demo College')).toBeUndefined();
      expect(await store.list('user-b')).toEqual([]);
      expect(await store.remove('user-b', 'Acme')).toBe(false);
      expect(await store.remove('user-a', 'ACME')).toBe(true);
      expect(await store.get('user-a', 'Acme')).toBeUndefined();
    });

    it('keeps the latest answer per item of a course, for its owner only', async () => {
      await store.putAnswer('user-a', course, answer('fail', '2026-11-28T10:00:00.000Z'), 'job-1');
      await store.putAnswer('user-a', course, answer('pass', '2026-11-28T11:00:00.000Z', 'Checked'), 'job-2');
      expect(await store.answers('user-a', course)).toEqual([{ itemId: 'contact', itemKey: 'k1', status: 'pass', note: 'Checked', by: 'qa@example.com', at: '2026-11-28T11:00:00.000Z' }]);
      expect(await store.answers('user-b', course)).toEqual([]);
      expect(await store.answers('user-a', { ...course, orgUnitId: 7 })).toEqual([]);
    });

    it('keeps sign-offs per run, for their owner only', async () => {
      await store.signOff('user-a', 'job-1', { by: 'qa@example.com', at: '2026-11-28T12:00:00.000Z' });
      expect(await store.signOffs('user-a', ['job-1', 'job-2'])).toEqual(new Map([['job-1', { by: 'qa@example.com', at: '2026-11-28T12:00:00.000Z' }]]));
      expect(await store.signOffs('user-b', ['job-1'])).toEqual(new Map());
    });
  });
}
