// The reports behaviour's CloudFront Function, run in Node against capabilities signed by the
// module the API uses: the edge must accept exactly what job-status hands out, and nothing else.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ownerTagOf, REPORT_KEY_STORE_PREFIX, REPORT_REVOCATION_STORE_PREFIX, signReportCapability } from '../../api/http/report-capability.ts';
import { REPORT_GATE_FILE } from '../../infra/lib/site.ts';
import { loadCloudFrontFunction } from './edge-runtime.ts';
import type { CfRequest as Request, CfResponse as Response } from './edge-runtime.ts';

const FILENAME = 'acme-college-ou6606-20260512t101500z-k3j9x2m4q8w7z5t1';
const K1 = { keyId: 'k1', key: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2w3X4y5Z6a7B8c9D0e1F2' };
const K2 = { keyId: 'k2', key: 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8Nn7Mm6Ll5Kk4Jj3Ii2Hh1Gg0Ff9E' };
const NOW = new Date('2026-05-12T10:20:00Z');

const request = (uri: string): Request => ({ method: 'GET', uri, querystring: { x: { value: '1' } }, headers: {} });
const storeOf = (...keys: { keyId: string; key: string }[]) => Object.fromEntries(keys.map((k) => [`${REPORT_KEY_STORE_PREFIX}${k.keyId}`, k.key]));

describe('the report gate at the edge', () => {
  afterEach(() => vi.useRealTimers());

  const gate = (store: Record<string, string>) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const source = readFileSync(REPORT_GATE_FILE, 'utf8');
    // CloudFront wants the KeyValueStore module imported on the first line.
    expect(source.split('\n')[0]).toBe("import cf from 'cloudfront';");
    return loadCloudFrontFunction(source, store);
  };
  const capability = (key: { keyId: string; key: string }, expiresAt = new Date('2026-05-12T11:20:00Z'), filename = FILENAME) =>
    signReportCapability({ filename, expiresAt, ...key });

  it('serves the report and its JSON and CSV twins for a valid link, from one cache key per report', async () => {
    const handler = gate(storeOf(K1));
    for (const extension of ['html', 'json', 'csv']) {
      const result = (await handler({ request: request(`/reports/${capability(K1)}/${FILENAME}.${extension}`) })) as Request;
      expect(result.uri).toBe(`/reports/${FILENAME}.${extension}`);
      expect(result.querystring).toEqual({});
    }
  });

  it('refuses an expired link with 403 and a page that says to open the report from CTPO', async () => {
    const handler = gate(storeOf(K1));
    const result = (await handler({ request: request(`/reports/${capability(K1, new Date('2026-05-12T10:20:00Z'))}/${FILENAME}.html`) })) as Response;
    expect(result.statusCode).toBe(403);
    expect(result.headers['content-type']!.value).toMatch(/^text\/html/);
    expect(result.headers['cache-control']!.value).toBe('no-store');
    expect(result.body!.data).toContain('This report link has expired');
    expect(result.body!.data).toContain('Open the report again from CTPO');
  });

  it('refuses a forged, altered or foreign link, and a bare file name, the same way', async () => {
    const handler = gate(storeOf(K1));
    const good = capability(K1);
    const [keyId, expires, issued, owner, signature] = good.split('.') as [string, string, string, string, string];
    const refused = [
      `/reports/${FILENAME}.html`,
      `/reports/${capability({ keyId: 'k1', key: 'q'.repeat(64) })}/${FILENAME}.html`,
      `/reports/${keyId}.${Number(expires) + 3600}.${issued}.${owner}.${signature}/${FILENAME}.html`,
      `/reports/${keyId}.${expires}.${issued}.${'0'.repeat(16)}.${signature}/${FILENAME}.html`,
      // Signed for more than an hour: no signer makes such a link.
      `/reports/${signReportCapability({ filename: FILENAME, issuedAt: new Date('2026-05-12T10:00:00Z'), expiresAt: new Date('2026-05-12T12:00:00Z'), ...K1 })}/${FILENAME}.html`,
      // The v1 format, without issue time and owner.
      `/reports/${keyId}.${expires}.${signature}/${FILENAME}.html`,
      `/reports/${good}/${FILENAME.slice(0, -1)}q.html`,
      `/reports/${capability(K1, undefined, 'other-report-ou1-20260512t101500z-aaaaaaaaaaaaaaaa')}/${FILENAME}.html`,
      `/reports/${good}/${FILENAME}.js`,
      `/reports/${good}/x/${FILENAME}.html`,
      `/reports/${good.toUpperCase()}/${FILENAME}.html`,
      `/reports/`,
    ];
    for (const uri of refused) {
      const result = (await handler({ request: request(uri) })) as Response;
      expect(result.statusCode, uri).toBe(403);
      expect(result.body!.data, uri).toContain('This report link is not valid');
    }
  });

  it('refuses the links of an owner who ended them, and only those issued up to then', async () => {
    const at = (iso: string, owner: string) => signReportCapability({ filename: FILENAME, owner, issuedAt: new Date(iso), expiresAt: new Date('2026-05-12T11:00:00Z'), ...K1 });
    const handler = gate({ ...storeOf(K1), [`${REPORT_REVOCATION_STORE_PREFIX}${ownerTagOf('user-a')}`]: String(Date.parse('2026-05-12T10:15:00Z') / 1000) });
    const outcome = async (capabilityText: string) => ((await handler({ request: request(`/reports/${capabilityText}/${FILENAME}.html`) })) as Request & Response).uri ?? 'refused';
    expect(await outcome(at('2026-05-12T10:15:00Z', 'user-a'))).toBe('refused');
    expect(await outcome(at('2026-05-12T10:15:01Z', 'user-a'))).toBe(`/reports/${FILENAME}.html`);
    expect(await outcome(at('2026-05-12T10:10:00Z', 'user-b'))).toBe(`/reports/${FILENAME}.html`);
  });

  it('accepts links of both live keys during a rotation, and drops a retired key', async () => {
    const rotating = gate(storeOf(K1, K2));
    for (const key of [K1, K2]) {
      const result = (await rotating({ request: request(`/reports/${capability(key)}/${FILENAME}.html`) })) as Request;
      expect(result.uri).toBe(`/reports/${FILENAME}.html`);
    }
    const rotated = gate(storeOf(K2));
    expect(((await rotated({ request: request(`/reports/${capability(K1)}/${FILENAME}.html`) })) as Response).statusCode).toBe(403);
  });
});
