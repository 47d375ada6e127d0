// Report links as capabilities: job-status hands its owner an `outputUrl` whose path carries a
// signed, expiring token, and the report is `outputUrl + filename + '.html'` (or '.json'), as the
// seed says. Whoever serves the reports (the local server, or on AWS a CloudFront Function with the
// same keys in a KeyValueStore: infra/edge/report-gate.js) checks the token against the file name
// before answering.
//
//   /reports/<keyId>.<expires>.<issued>.<owner>.<signature>/<filename>.html
//
// keyId      the signing key's id, 1-16 of [a-z0-9]: two keys can be live at once, so a rotation
//            never breaks a link handed out just before it
// expires    Unix time in whole seconds after which the link stops working
// issued     Unix time in whole seconds at which it was signed
// owner      the first 16 hex digits of SHA-256 over the owner's `sub`: whose links a revocation
//            ends (the owner revokes every link issued up to a time); it tells nothing of the owner
// signature  lower-case hex HMAC-SHA256, keyed by the key's text, over
//            "ctpo-report-v2\n<keyId>\n<expires>\n<issued>\n<owner>\n<filename>"
//
// The signature covers the file name without its extension, so one capability opens a report and
// its JSON and CSV twins, and no other report. A report is opened in a new tab, which carries no
// token, so the link itself is the permission: its expiry (an hour at most, and never past the
// access token that asked for it) bounds how long a copied link keeps working, and its owner can
// end all of them at once.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

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

const MAC_CONTEXT = 'ctpo-report-v2';
const KEY_ID = /^[a-z0-9]{1,16}$/;
const EXPIRES = /^[1-9][0-9]{0,10}$/;
const SIGNATURE = /^[0-9a-f]{64}$/;
const OWNER = /^[0-9a-f]{16}$/;

/** The owner's tag in a link: what a revocation is kept under (`report-revoked-<tag>` at the edge). */
export function ownerTagOf(sub: string): string {
  return createHash('sha256').update(sub, 'utf8').digest('hex').slice(0, 16);
}

/** Where the edge's KeyValueStore keeps an owner's revocation time (Unix seconds). */
export const REPORT_REVOCATION_STORE_PREFIX = 'report-revoked-';
/** Report names are lower-case letters, digits and hyphens (api/jobs/report-filename.ts). */
const FILENAME = /^[a-z0-9][a-z0-9-]{0,199}$/;
/** A key must carry at least 192 bits however it was written (hex, base64 or letters and digits). */
export const MIN_KEY_LENGTH = 32;

export type CapabilityRefusal = 'malformed' | 'unknown-key' | 'forged' | 'expired' | 'revoked';
export type CapabilityCheck = { ok: true; expiresAt: Date } | { ok: false; reason: CapabilityRefusal };

function macOf(key: string, keyId: string, expires: string, issued: string, owner: string, filename: string): string {
  return createHmac('sha256', key).update(`${MAC_CONTEXT}\n${keyId}\n${expires}\n${issued}\n${owner}\n${filename}`, 'utf8').digest('hex');
}

function assertKey({ keyId, key }: ReportKey): void {
  if (!KEY_ID.test(keyId)) throw new Error(`A report key id is 1 to 16 lower-case letters or digits, not "${keyId}".`);
  if (key.length < MIN_KEY_LENGTH) throw new Error(`A report key must be at least ${MIN_KEY_LENGTH} characters long.`);
}

function unixSeconds(at: Date, what: string): string {
  const seconds = Math.floor(at.getTime() / 1000);
  const text = String(seconds);
  if (!Number.isSafeInteger(seconds) || !EXPIRES.test(text)) throw new Error(`A report link must ${what} at a time after 1970.`);
  return text;
}

/**
 * The capability for one report of `owner` (a `sub`), signed at `issuedAt` (by default the longest
 * life before `expiresAt`) and valid until `expiresAt` (rounded down to the second).
 */
export function signReportCapability(input: { filename: string; owner?: string; issuedAt?: Date; expiresAt: Date } & ReportKey): string {
  assertKey(input);
  if (!FILENAME.test(input.filename)) throw new Error(`"${input.filename}" is not a report name.`);
  const expires = unixSeconds(input.expiresAt, 'expire');
  const issued = unixSeconds(input.issuedAt ?? new Date(input.expiresAt.getTime() - REPORT_LINK_MAX_SECONDS * 1000), 'be issued');
  const owner = ownerTagOf(input.owner ?? '');
  return `${input.keyId}.${expires}.${issued}.${owner}.${macOf(input.key, input.keyId, expires, issued, owner, input.filename)}`;
}

/** The `outputUrl` job-status answers with: the reports address (ending in '/') and the capability. */
export function reportOutputUrl(reportsUrl: string, capability: string): string {
  return `${reportsUrl.endsWith('/') ? reportsUrl : `${reportsUrl}/`}${capability}/`;
}

/**
 * Checks a capability for `filename` (no extension) at `now`. `keyOf` gives a key's text by id, or
 * undefined for a key that is not (or no longer) live; `revokedUpTo` the Unix second up to which an
 * owner (by tag) revoked their links, if they did. A capability that is not authentic is 'forged'
 * whether or not it has expired; only an authentic one can be 'expired' or 'revoked'. A link that
 * claims more than REPORT_LINK_MAX_SECONDS of life is forged too: no signer makes one.
 */
export function verifyReportCapability(input: {
  capability: string;
  filename: string;
  now: Date;
  keyOf: (keyId: string) => string | undefined;
  revokedUpTo?: (ownerTag: string) => number | undefined;
}): CapabilityCheck {
  const parts = input.capability.split('.');
  if (parts.length !== 5 || !FILENAME.test(input.filename)) return { ok: false, reason: 'malformed' };
  const [keyId, expires, issued, owner, signature] = parts as [string, string, string, string, string];
  if (!KEY_ID.test(keyId) || !EXPIRES.test(expires) || !EXPIRES.test(issued) || !OWNER.test(owner) || !SIGNATURE.test(signature)) return { ok: false, reason: 'malformed' };
  const key = input.keyOf(keyId);
  if (key === undefined || key.length < MIN_KEY_LENGTH) return { ok: false, reason: 'unknown-key' };
  const expected = Buffer.from(macOf(key, keyId, expires, issued, owner, input.filename), 'utf8');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'utf8'))) return { ok: false, reason: 'forged' };
  if (Number(expires) - Number(issued) > REPORT_LINK_MAX_SECONDS) return { ok: false, reason: 'forged' };
  const expiresAt = new Date(Number(expires) * 1000);
  if (input.now.getTime() >= expiresAt.getTime() || input.now.getTime() < Number(issued) * 1000 - CLOCK_SKEW_MS) return { ok: false, reason: 'expired' };
  const revoked = input.revokedUpTo?.(owner);
  if (revoked !== undefined && Number(issued) <= revoked) return { ok: false, reason: 'revoked' };
  return { ok: true, expiresAt };
}

/** The longest a report link lives: an hour (report-links.ts says why). */
export const REPORT_LINK_MAX_SECONDS = 60 * 60;
/** A link issued a little in the future of the checker's clock is still good (clocks differ by a few seconds). */
const CLOCK_SKEW_MS = 60_000;

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
  const match = /^([a-z0-9.]{1,160})\/([a-z0-9-]{1,200})\.([a-z]{1,8})$/.exec(rest);
  if (match === null) return undefined;
  const [, capability, filename, extension] = match as unknown as [string, string, string, string];
  if (!(REPORT_EXTENSIONS as readonly string[]).includes(extension)) return undefined;
  return { capability, filename, extension: extension as ReportExtension };
}
