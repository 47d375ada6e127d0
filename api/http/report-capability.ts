// Report links as capabilities: job-status hands its owner an `outputUrl` whose path carries a
// signed, expiring token, and the report is `outputUrl + filename + '.html'` (or '.json'), as the
// seed says. Whoever serves the reports (the local server, or on AWS a CloudFront Function with the
// same keys in a KeyValueStore: infra/edge/report-gate.js) checks the token against the file name
// before answering.
//
//   /reports/<keyId>.<expires>.<signature>/<filename>.html
//
// keyId      the signing key's id, 1-16 of [a-z0-9]: two keys can be live at once, so a rotation
//            never breaks a link handed out just before it
// expires    Unix time in whole seconds after which the link stops working
// signature  lower-case hex HMAC-SHA256, keyed by the key's text, over
//            "ctpo-report-v1\n<keyId>\n<expires>\n<filename>"
//
// The signature covers the file name without its extension, so one capability opens a report and
// its JSON and CSV twins, and no other report. It names no user: a report is opened in a new tab, which
// carries no token, so the link itself is the permission, and its expiry bounds how long a copied
// link keeps working.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A signing key: its id goes in the capability, its text is the HMAC key. */
export interface ReportKey {
  keyId: string;
  key: string;
}

/** Where a key's text lives in the CloudFront KeyValueStore the edge reads (`report-key-<keyId>`). */
export const REPORT_KEY_STORE_PREFIX = 'report-key-';

/** The extensions a report is published with: the report, its JSON twin and its CSV twin. */
export const REPORT_EXTENSIONS = ['html', 'json', 'csv'] as const;
export type ReportExtension = (typeof REPORT_EXTENSIONS)[number];

const MAC_CONTEXT = 'ctpo-report-v1';
const KEY_ID = /^[a-z0-9]{1,16}$/;
const EXPIRES = /^[1-9][0-9]{0,10}$/;
const SIGNATURE = /^[0-9a-f]{64}$/;
/** Report names are lower-case letters, digits and hyphens (api/jobs/report-filename.ts). */
const FILENAME = /^[a-z0-9][a-z0-9-]{0,199}$/;
/** A key must carry at least 192 bits however it was written (hex, base64 or letters and digits). */
export const MIN_KEY_LENGTH = 32;

export type CapabilityRefusal = 'malformed' | 'unknown-key' | 'forged' | 'expired';
export type CapabilityCheck = { ok: true; expiresAt: Date } | { ok: false; reason: CapabilityRefusal };

function macOf(key: string, keyId: string, expires: string, filename: string): string {
  return createHmac('sha256', key).update(`${MAC_CONTEXT}\n${keyId}\n${expires}\n${filename}`, 'utf8').digest('hex');
}

function assertKey({ keyId, key }: ReportKey): void {
  if (!KEY_ID.test(keyId)) throw new Error(`A report key id is 1 to 16 lower-case letters or digits, not "${keyId}".`);
  if (key.length < MIN_KEY_LENGTH) throw new Error(`A report key must be at least ${MIN_KEY_LENGTH} characters long.`);
}

/** The capability for one report, valid until `expiresAt` (rounded down to the second). */
export function signReportCapability(input: { filename: string; expiresAt: Date } & ReportKey): string {
  assertKey(input);
  if (!FILENAME.test(input.filename)) throw new Error(`"${input.filename}" is not a report name.`);
  const seconds = Math.floor(input.expiresAt.getTime() / 1000);
  const expires = String(seconds);
  if (!Number.isSafeInteger(seconds) || !EXPIRES.test(expires)) throw new Error('A report link must expire at a time after 1970.');
  return `${input.keyId}.${expires}.${macOf(input.key, input.keyId, expires, input.filename)}`;
}

/** The `outputUrl` job-status answers with: the reports address (ending in '/') and the capability. */
export function reportOutputUrl(reportsUrl: string, capability: string): string {
  return `${reportsUrl.endsWith('/') ? reportsUrl : `${reportsUrl}/`}${capability}/`;
}

/**
 * Checks a capability for `filename` (no extension) at `now`. `keyOf` gives a key's text by id, or
 * undefined for a key that is not (or no longer) live. A capability that is not authentic is
 * 'forged' whether or not it has expired; only an authentic one can be 'expired'.
 */
export function verifyReportCapability(input: { capability: string; filename: string; now: Date; keyOf: (keyId: string) => string | undefined }): CapabilityCheck {
  const parts = input.capability.split('.');
  if (parts.length !== 3 || !FILENAME.test(input.filename)) return { ok: false, reason: 'malformed' };
  const [keyId, expires, signature] = parts as [string, string, string];
  if (!KEY_ID.test(keyId) || !EXPIRES.test(expires) || !SIGNATURE.test(signature)) return { ok: false, reason: 'malformed' };
  const key = input.keyOf(keyId);
  if (key === undefined || key.length < MIN_KEY_LENGTH) return { ok: false, reason: 'unknown-key' };
  const expected = Buffer.from(macOf(key, keyId, expires, input.filename), 'utf8');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'utf8'))) return { ok: false, reason: 'forged' };
  const expiresAt = new Date(Number(expires) * 1000);
  if (input.now.getTime() >= expiresAt.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, expiresAt };
}

export interface ReportPath {
  capability: string;
  filename: string;
  extension: ReportExtension;
}

/**
 * Splits the part of a report address after the reports prefix (`<capability>/<filename>.<ext>`).
 * Undefined for anything else: a bare file name, more segments, another extension.
 */
export function parseReportPath(rest: string): ReportPath | undefined {
  const match = /^([a-z0-9.]{1,120})\/([a-z0-9-]{1,200})\.([a-z]{1,8})$/.exec(rest);
  if (match === null) return undefined;
  const [, capability, filename, extension] = match as unknown as [string, string, string, string];
  if (!(REPORT_EXTENSIONS as readonly string[]).includes(extension)) return undefined;
  return { capability, filename, extension: extension as ReportExtension };
}
