// The local stack's TLS certificate. Amplify always reaches the hosted login over https, so the
// local origin must serve TLS: a mkcert certificate (trusted by the browser) when mkcert is
// installed, otherwise a self-signed one. Made on first start, reused while it stays valid. Its key
// is ECDSA P-256: a server signs a handshake with it about forty times faster than with RSA-2048,
// which counts when many browsers (or a load test's pollers) connect at once.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generate } from 'selfsigned';

export const CERTIFICATE_HOSTS = ['localhost', '127.0.0.1', '::1'] as const;

export interface TlsCertificate {
  cert: string;
  key: string;
  /** Where it came from, for the start-up message. */
  source: 'mkcert' | 'self-signed';
  certPath: string;
}

const RENEW_BEFORE_MS = 7 * 24 * 3600 * 1000;

function coversHosts(certificate: X509Certificate): boolean {
  return CERTIFICATE_HOSTS.every((host) => (host.includes(':') || /^\d/.test(host) ? certificate.checkIP(host) : certificate.checkHost(host)) !== undefined);
}

function usable(certPath: string, keyPath: string, now: Date): boolean {
  if (!existsSync(certPath) || !existsSync(keyPath)) return false;
  try {
    const certificate = new X509Certificate(readFileSync(certPath));
    // An RSA certificate from an earlier version is made again as ECDSA.
    return new Date(certificate.validTo).getTime() - now.getTime() > RENEW_BEFORE_MS && coversHosts(certificate) && certificate.publicKey.asymmetricKeyType === 'ec';
  } catch {
    return false;
  }
}

async function makeWithMkcert(certPath: string, keyPath: string): Promise<boolean> {
  try {
    await promisify(execFile)('mkcert', ['-ecdsa', '-cert-file', certPath, '-key-file', keyPath, ...CERTIFICATE_HOSTS], { timeout: 30_000 });
    return existsSync(certPath) && existsSync(keyPath);
  } catch {
    // Not installed, or it failed: the self-signed certificate below works too, with a browser warning.
    return false;
  }
}

async function makeSelfSigned(certPath: string, keyPath: string, now: Date): Promise<void> {
  const notAfter = new Date(now.getTime() + 365 * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }, { name: 'organizationName', value: 'CTPO local stack' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  writeFileSync(keyPath, pems.private, { mode: 0o600 });
  writeFileSync(certPath, pems.cert);
}

/** The certificate in `<dir>/cert.pem` and `<dir>/key.pem`, made when missing, expiring or incomplete. */
export async function ensureTlsCertificate(dir: string, options: { useMkcert?: boolean; now?: Date } = {}): Promise<TlsCertificate> {
  const now = options.now ?? new Date();
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  const sourcePath = join(dir, 'source.txt');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!usable(certPath, keyPath, now)) {
    rmSync(certPath, { force: true });
    rmSync(keyPath, { force: true });
    const viaMkcert = (options.useMkcert ?? true) && (await makeWithMkcert(certPath, keyPath));
    if (!viaMkcert) await makeSelfSigned(certPath, keyPath, now);
    writeFileSync(sourcePath, viaMkcert ? 'mkcert\n' : 'self-signed\n');
  }
  const source = existsSync(sourcePath) && readFileSync(sourcePath, 'utf8').trim() === 'mkcert' ? 'mkcert' : 'self-signed';
  return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), source, certPath };
}
