// The report address job-status hands a job's owner: the reports address with a capability for that
// one report in its path (api/http/report-capability.ts), signed with the key in use now. A fresh
// call gives a fresh link, so the owner renews a link by asking for the job's status again; the
// owner can also end every link handed out so far (DELETE /api/report-links).
import { REPORT_LINK_MAX_SECONDS, reportOutputUrl, signReportCapability } from './report-capability.ts';
import type { ReportKey } from './report-capability.ts';

/**
 * How long a link keeps working: an hour, since the job monitor and the list of runs sign a new
 * one each time they are opened, and never longer than the access token that asked for it (15
 * minutes): a stolen token then yields links that end when it does. It also bounds how long a link
 * copied elsewhere keeps opening the report.
 */
export const REPORT_LINK_LIFETIME_MS = REPORT_LINK_MAX_SECONDS * 1000;

/** The key report links are signed with now; a rotation changes it between calls. */
export type ReportSigningKey = () => Promise<ReportKey>;

/** Where an owner's revocation of their links is kept (by owner tag, report-capability.ts): the reports' servers read it. */
export interface ReportLinkRevocations {
  /** Ends every link of the owner issued up to `at`. */
  revokeAll(ownerTag: string, at: Date): Promise<void>;
}

export async function signedReportOutputUrl(input: {
  reportsUrl: string;
  filename: string;
  /** The `sub` of the job's owner, who asked. */
  owner: string;
  now: Date;
  signingKey: ReportSigningKey;
  lifetimeMs?: number;
  /** When the access token that asked expires: the link expires no later. */
  tokenExpiresAt?: Date;
}): Promise<string> {
  const lifetime = Math.min(input.lifetimeMs ?? REPORT_LINK_LIFETIME_MS, REPORT_LINK_LIFETIME_MS);
  const until = input.now.getTime() + lifetime;
  const expiresAt = new Date(input.tokenExpiresAt === undefined ? until : Math.min(until, input.tokenExpiresAt.getTime()));
  const capability = signReportCapability({ filename: input.filename, owner: input.owner, issuedAt: input.now, expiresAt, ...(await input.signingKey()) });
  return reportOutputUrl(input.reportsUrl, capability);
}
