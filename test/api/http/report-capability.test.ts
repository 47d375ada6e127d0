import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ownerTagOf, parseReportPath, reportOutputUrl, signReportCapability, verifyReportCapability } from '../../../api/http/report-capability.ts';

const KEY = { keyId: 'k1', key: 'x'.repeat(20) + 'K3y-0f-exactly-enough-text' };
const FILENAME = 'acme-college-ou6606-20260512t101500z-k3j9x2m4q8w7z5t1';
const NOW = new Date('2026-05-12T10:20:00Z');
const IN_AN_HOUR = new Date('2026-05-12T11:20:00Z');
const keyOf = (keys: Record<string, string>) => (keyId: string) => keys[keyId];

describe('report capabilities', () => {
  const capability = signReportCapability({ filename: FILENAME, owner: 'user-a', issuedAt: NOW, expiresAt: IN_AN_HOUR, ...KEY });

  it('has the documented shape: key id, expiry and issue in seconds, owner tag, hex HMAC', () => {
    expect(capability).toBe(`k1.1778584800.1778581200.${ownerTagOf('user-a')}.${capability.split('.')[4]}`);
    expect(capability).toMatch(/^k1\.1778584800\.1778581200\.[0-9a-f]{16}\.[0-9a-f]{64}$/);
    expect(reportOutputUrl('https://ctpo.example.com/reports/', capability)).toBe(`https://ctpo.example.com/reports/${capability}/`);
    expect(reportOutputUrl('https://ctpo.example.com/reports', capability)).toBe(`https://ctpo.example.com/reports/${capability}/`);
  });

  it('opens its own report and the JSON and CSV twins until it expires', () => {
    expect(verifyReportCapability({ capability, filename: FILENAME, now: NOW, keyOf: keyOf({ k1: KEY.key }) })).toEqual({ ok: true, expiresAt: IN_AN_HOUR });
    const path = parseReportPath(`${capability}/${FILENAME}.json`);
    expect(path).toEqual({ capability, filename: FILENAME, extension: 'json' });
    expect(parseReportPath(`${capability}/${FILENAME}.csv`)).toEqual({ capability, filename: FILENAME, extension: 'csv' });
  });

  it('is expired from its expiry second on', () => {
    const at = (iso: string) => verifyReportCapability({ capability, filename: FILENAME, now: new Date(iso), keyOf: keyOf({ k1: KEY.key }) });
    expect(at('2026-05-12T11:19:59.999Z').ok).toBe(true);
    expect(at('2026-05-12T11:20:00.000Z')).toEqual({ ok: false, reason: 'expired' });
  });

  it('opens no other report', () => {
    expect(verifyReportCapability({ capability, filename: `${FILENAME.slice(0, -1)}x`, now: NOW, keyOf: keyOf({ k1: KEY.key }) })).toEqual({ ok: false, reason: 'forged' });
  });

  it('refuses a changed expiry, key id or signature, and a key nobody holds', () => {
    const [keyId, expires, issued, owner, signature] = capability.split('.') as [string, string, string, string, string];
    const check = (candidate: string, keys: Record<string, string> = { k1: KEY.key, k2: 'y'.repeat(40) }) =>
      verifyReportCapability({ capability: candidate, filename: FILENAME, now: NOW, keyOf: keyOf(keys) });
    expect(check(`${keyId}.${Number(expires) + 86_400}.${issued}.${owner}.${signature}`)).toEqual({ ok: false, reason: 'forged' });
    expect(check(`${keyId}.${expires}.${Number(issued) - 1}.${owner}.${signature}`)).toEqual({ ok: false, reason: 'forged' });
    expect(check(`${keyId}.${expires}.${issued}.${ownerTagOf('user-b')}.${signature}`)).toEqual({ ok: false, reason: 'forged' });
    expect(check(`k2.${expires}.${issued}.${owner}.${signature}`)).toEqual({ ok: false, reason: 'forged' });
    expect(check(`${keyId}.${expires}.${issued}.${owner}.${signature.replace(/^./, (c) => (c === '0' ? '1' : '0'))}`)).toEqual({ ok: false, reason: 'forged' });
    // Signed for longer than an hour (by a key that leaked, or a signer gone wrong): refused.
    const long = signReportCapability({ filename: FILENAME, issuedAt: NOW, expiresAt: new Date(NOW.getTime() + 2 * 3_600_000), ...KEY });
    expect(check(long)).toEqual({ ok: false, reason: 'forged' });
    expect(check(capability, { k2: 'y'.repeat(40) })).toEqual({ ok: false, reason: 'unknown-key' });
    // Signed with a key that is not CTPO's: forged, not merely expired, even when old.
    const outsider = signReportCapability({ filename: FILENAME, expiresAt: new Date('2020-01-01T00:00:00Z'), keyId: 'k1', key: 'z'.repeat(40) });
    expect(check(outsider)).toEqual({ ok: false, reason: 'forged' });
  });

  it('is refused once its owner has ended their links, and other owners\' links are not', () => {
    const revokedUpTo = (tag: string) => (tag === ownerTagOf('user-a') ? Math.floor(NOW.getTime() / 1000) : undefined);
    expect(verifyReportCapability({ capability, filename: FILENAME, now: NOW, keyOf: keyOf({ k1: KEY.key }), revokedUpTo })).toEqual({ ok: false, reason: 'revoked' });
    const later = signReportCapability({ filename: FILENAME, owner: 'user-a', issuedAt: new Date(NOW.getTime() + 1000), expiresAt: IN_AN_HOUR, ...KEY });
    expect(verifyReportCapability({ capability: later, filename: FILENAME, now: NOW, keyOf: keyOf({ k1: KEY.key }), revokedUpTo }).ok).toBe(true);
    const theirs = signReportCapability({ filename: FILENAME, owner: 'user-b', issuedAt: NOW, expiresAt: IN_AN_HOUR, ...KEY });
    expect(verifyReportCapability({ capability: theirs, filename: FILENAME, now: NOW, keyOf: keyOf({ k1: KEY.key }), revokedUpTo }).ok).toBe(true);
  });

  it('keeps working across a key rotation while the old key is still live', () => {
    const rotated = signReportCapability({ filename: FILENAME, expiresAt: IN_AN_HOUR, keyId: 'k2', key: 'n'.repeat(48) });
    const both = keyOf({ k1: KEY.key, k2: 'n'.repeat(48) });
    expect(verifyReportCapability({ capability, filename: FILENAME, now: NOW, keyOf: both }).ok).toBe(true);
    expect(verifyReportCapability({ capability: rotated, filename: FILENAME, now: NOW, keyOf: both }).ok).toBe(true);
    // Once the old key is dropped, its links stop working.
    expect(verifyReportCapability({ capability, filename: FILENAME, now: NOW, keyOf: keyOf({ k2: 'n'.repeat(48) }) })).toEqual({ ok: false, reason: 'unknown-key' });
  });

  it('refuses malformed capabilities and paths without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const result = verifyReportCapability({ capability: text, filename: FILENAME, now: NOW, keyOf: keyOf({ k1: KEY.key }) });
        expect(result.ok).toBe(false);
        parseReportPath(text);
      }),
    );
    for (const rest of [`${FILENAME}.html`, `${capability}/${FILENAME}.exe`, `${capability}/../${FILENAME}.html`, `${capability}/a/${FILENAME}.html`, `${capability}/${FILENAME.toUpperCase()}.html`]) {
      expect(parseReportPath(rest), rest).toBeUndefined();
    }
    expect(verifyReportCapability({ capability, filename: '../etc/passwd', now: NOW, keyOf: keyOf({ k1: KEY.key }) })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses to sign with a weak key, a bad key id or a bad file name', () => {
    expect(() => signReportCapability({ filename: FILENAME, expiresAt: IN_AN_HOUR, keyId: 'k1', key: 'short' })).toThrow(/at least 32/);
    expect(() => signReportCapability({ filename: FILENAME, expiresAt: IN_AN_HOUR, keyId: 'K.1', key: KEY.key })).toThrow(/key id/);
    expect(() => signReportCapability({ filename: 'a/b', expiresAt: IN_AN_HOUR, ...KEY })).toThrow(/not a report name/);
  });
});
