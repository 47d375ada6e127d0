// The local record of report links their owners ended: per owner tag, the Unix second up to which
// every link issued is refused. Kept in a small JSON file of the data folder, so a restart keeps it.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { ReportLinkRevocations } from '../http/report-links.ts';

export interface LocalReportLinkRevocations extends ReportLinkRevocations {
  revokedUpTo(ownerTag: string): number | undefined;
}

export function openReportLinkRevocations(path: string): LocalReportLinkRevocations {
  let revoked: Record<string, number> = {};
  try {
    const stored = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (typeof stored === 'object' && stored !== null) {
      for (const [tag, at] of Object.entries(stored)) if (/^[0-9a-f]{16}$/.test(tag) && Number.isSafeInteger(at)) revoked[tag] = at as number;
    }
  } catch {
    revoked = {};
  }
  return {
    revokedUpTo: (ownerTag) => revoked[ownerTag],
    async revokeAll(ownerTag, at) {
      revoked[ownerTag] = Math.max(revoked[ownerTag] ?? 0, Math.floor(at.getTime() / 1000));
      // Written whole, then renamed: a crash leaves the old file or the new one, never half of one.
      writeFileSync(`${path}.tmp`, JSON.stringify(revoked), { mode: 0o600 });
      renameSync(`${path}.tmp`, path);
    },
  };
}
