// Report file names: readable (client, org unit, UTC time), unique and unguessable (a random part
// of 80 bits), and safe anywhere a file name or URL path segment goes (lower-case a-z, 0-9, '-').
import { randomBytes } from 'node:crypto';

const MAX_SLUG_LENGTH = 40;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** 'Acme Collège — Nursing' -> 'acme-college-nursing'; 'client' when nothing readable is left. */
export function slugOf(label: string): string {
  const slug = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'client' : slug;
}

function randomPart(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/** e.g. acme-college-ou6606-20260512t101500z-k3j9x2m4q8w7z5t1 (no extension). */
export function reportFilename(input: { client: string; orgUnitId: number; at: Date }, random: () => string = randomPart): string {
  const stamp = input.at.toISOString().replace(/\.\d{3}Z$/, 'z').replace(/[-:]/g, '').toLowerCase();
  return `${slugOf(input.client)}-ou${input.orgUnitId}-${stamp}-${random()}`;
}

/** What a report file name may look like: used to refuse anything else at the reports route. */
export const REPORT_FILENAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
