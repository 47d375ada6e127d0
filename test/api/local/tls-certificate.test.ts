import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CERTIFICATE_HOSTS, ensureTlsCertificate } from '../../../api/local/tls-certificate.ts';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ctpo-tls-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the local TLS certificate', () => {
  it('is made with an ECDSA P-256 key, for every local host name, and kept while it stays valid', async () => {
    const first = await ensureTlsCertificate(dir, { useMkcert: false });
    const certificate = new X509Certificate(first.cert);
    expect(first.source).toBe('self-signed');
    expect(certificate.publicKey.asymmetricKeyType).toBe('ec');
    expect(certificate.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(certificate.checkHost('localhost')).toBe('localhost');
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkIP('::1')).toBe('::1');
    expect(CERTIFICATE_HOSTS).toHaveLength(3);
    expect(certificate.checkPrivateKey(createPrivateKey(first.key))).toBe(true);

    const again = await ensureTlsCertificate(dir, { useMkcert: false });
    expect(again.cert).toBe(first.cert);
  });

  it('makes an RSA certificate left by an earlier version again, as ECDSA', async () => {
    mkdirSync(dir, { recursive: true });
    const now = new Date();
    const old = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      notBeforeDate: new Date(now.getTime() - 60_000),
      notAfterDate: new Date(now.getTime() + 365 * 24 * 3600 * 1000),
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] }],
    });
    writeFileSync(join(dir, 'cert.pem'), old.cert);
    writeFileSync(join(dir, 'key.pem'), old.private);
    expect(new X509Certificate(old.cert).publicKey.asymmetricKeyType).toBe('rsa');

    const made = await ensureTlsCertificate(dir, { useMkcert: false });
    expect(new X509Certificate(made.cert).publicKey.asymmetricKeyType).toBe('ec');
    expect(readFileSync(join(dir, 'cert.pem'), 'utf8')).toBe(made.cert);
  });
});
