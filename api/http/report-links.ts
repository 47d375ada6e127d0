// The report address job-status hands a job's owner: the reports address with a capability for that
// one report in its path (api/http/report-capability.ts), signed with the key in use now. A fresh
// call gives a fresh link, so the owner renews a link by asking for the job's status again.
import { reportOutputUrl, signReportCapability } from './report-capability.ts';
import type { ReportKey } from './report-capability.ts';

/**
 * How long a link keeps working: a working day with the job monitor open, and far within the 30
 * days between key rotations (infra/lib/report-keys.ts), so a rotation never ends a link early.
 * It also bounds how long a link copied elsewhere keeps opening the report.
 */
export const REPORT_LINK_LIFETIME_MS = 12 * 60 * 60 * 1000;

/** The key report links are signed with now; a rotation changes it between calls. */
export type ReportSigningKey = () => Promise<ReportKey>;

export async function signedReportOutputUrl(input: {
  reportsUrl: string;
  filename: string;
  now: Date;
  signingKey: ReportSigningKey;
  lifetimeMs?: number;
}): Promise<string> {
  const expiresAt = new Date(input.now.getTime() + (input.lifetimeMs ?? REPORT_LINK_LIFETIME_MS));
  const capability = signReportCapability({ filename: input.filename, expiresAt, ...(await input.signingKey()) });
  return reportOutputUrl(input.reportsUrl, capability);
}
