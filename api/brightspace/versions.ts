// API version negotiation: Brightspace lists what it supports at /d2l/api/versions/, and the
// client uses the newest LE and LP versions rather than hard-coding them.

export interface ApiVersions {
  le: string;
  lp: string;
}

/** The first LE version that knows `ignoreDateRestrictions` on content/toc. */
export const IGNORE_DATE_RESTRICTIONS_SINCE = '1.67';

// Old enough that every Brightspace still serving the API supports them.
const FALLBACK: ApiVersions = { le: '1.51', lp: '1.30' };

export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

function newest(entry: Record<string, unknown>): string | undefined {
  const candidates = [entry.LatestVersion, ...(Array.isArray(entry.SupportedVersions) ? entry.SupportedVersions : [])]
    .filter((value): value is string => typeof value === 'string' && /^\d+(\.\d+)*$/.test(value));
  return candidates.sort(compareVersions).at(-1);
}

/**
 * Reads the body of /d2l/api/versions/ (`[{ ProductCode, LatestVersion, SupportedVersions }]`).
 * Returns null when it is not that shape, which means the site is not a Brightspace site.
 */
export function pickApiVersions(body: unknown): ApiVersions | null {
  if (!Array.isArray(body)) return null;
  const byProduct = new Map<string, string>();
  for (const entry of body) {
    if (entry === null || typeof entry !== 'object') continue;
    const record = entry as Record<string, unknown>;
    const version = newest(record);
    if (typeof record.ProductCode === 'string' && version) byProduct.set(record.ProductCode.toLowerCase(), version);
  }
  if (!byProduct.has('le') && !byProduct.has('lp')) return null;
  return { le: byProduct.get('le') ?? FALLBACK.le, lp: byProduct.get('lp') ?? FALLBACK.lp };
}

export function supportsIgnoreDateRestrictions(leVersion: string): boolean {
  return compareVersions(leVersion, IGNORE_DATE_RESTRICTIONS_SINCE) >= 0;
}
