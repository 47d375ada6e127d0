// `link.soft-404`: a link that answers with a page, but a page that says the address does not
// exist, or that sends it where the host sends an address that surely does not exist (its home or
// sign-in page). Judged by comparing the link's page with the host's answer to such an address
// (status, final address, title, a similarity of the text) and by the not-found wording of the
// page's title and main heading. Never flagged: a page that talks about errors, a short real page,
// a site whose every page is short (short pages are never compared by their text).
import type { PageSnapshot } from '../net/link-checker.ts';
import { NOT_FOUND_COMPANIONS, NOT_FOUND_PHRASES } from './not-found-words.ts';

export type SoftNotFoundKind = 'not-found' | 'home' | 'sign-in';

/** Pages with fewer word shingles than this are not compared by their text. */
export const MIN_SHINGLES = 25;
/** Jaccard similarity of the texts' shingles from which two pages are the same page. */
export const SAME_PAGE_SIMILARITY = 0.8;

const SIGN_IN = /(^|[/_.-])(log-?in|sign-?in|signon|sso|auth|cas|account\/login|idp)([/_.?-]|$)/i;
const PHRASES = [...new Set(Object.values(NOT_FOUND_PHRASES).flat())].map(normalise).sort((a, b) => b.length - a.length);
const SEPARATORS = /\s[|–—•·»:-]\s|[|–—•·»：:]|\s-\s/u;

function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[’‘`´]/g, "'").replace(/\s+/g, ' ').trim();
}

/** Whether a title or heading is a not-found notice: one of its parts is the phrase with at most companion words. */
export function saysNotFound(text: string): boolean {
  for (const part of normalise(text).split(SEPARATORS)) {
    for (const phrase of PHRASES) {
      const at = part.indexOf(phrase);
      if (at === -1) continue;
      const rest = `${part.slice(0, at)} ${part.slice(at + phrase.length)}`
        .replace(/[\p{P}\p{S}]/gu, ' ')
        .split(/\s+/)
        .filter((word) => word !== '' && !NOT_FOUND_COMPANIONS.has(word));
      if (rest.length === 0) return true;
    }
  }
  return false;
}

function shingles(text: string): Set<string> {
  const words = normalise(text).split(/[^\p{L}\p{N}']+/u).filter(Boolean);
  // Scripts without spaces between words: characters stand for words.
  const units = words.length < 8 && text.length > 40 ? [...normalise(text).replace(/\s/g, '')] : words;
  const set = new Set<string>();
  for (let i = 0; i + 3 <= units.length; i++) set.add(units.slice(i, i + 3).join(' '));
  return set;
}

/** Jaccard similarity of two texts' three-word shingles; null when either is too short to compare. */
export function textSimilarity(a: string, b: string): number | null {
  const left = shingles(a);
  const right = shingles(b);
  if (left.size < MIN_SHINGLES || right.size < MIN_SHINGLES) return null;
  let shared = 0;
  for (const shingle of left) if (right.has(shingle)) shared++;
  return shared / (left.size + right.size - shared);
}

function withoutHash(address: string): string {
  const url = new URL(address);
  url.hash = '';
  return url.href;
}

/** A home page: the root, or an index or home page at the root. */
function isHome(url: URL): boolean {
  return /^\/((index|default|home)(\.\w+)?)?$/i.test(url.pathname);
}

/**
 * Whether a link's page is a not-found page in disguise, and of which kind; null for a real page.
 * `missing` is the same host's answer to an address that surely does not exist.
 */
export function softNotFound(page: PageSnapshot, missing: PageSnapshot): SoftNotFoundKind | null {
  if (page.status < 200 || page.status >= 300 || missing.status < 200 || missing.status >= 300) return null;
  const requested = new URL(page.requested);
  // A link to the home page itself is where the home page is.
  if (isHome(requested)) return null;
  const final = new URL(page.url);
  const redirected = withoutHash(page.url) !== withoutHash(page.requested);
  const missingRedirected = withoutHash(missing.url) !== withoutHash(missing.requested);
  const missingFinal = new URL(missing.url);
  // Where a missing address is sent may carry it back in its query (a sign-in page's return address).
  if (redirected && missingRedirected && final.origin === missingFinal.origin && final.pathname === missingFinal.pathname) {
    if (SIGN_IN.test(final.pathname)) return 'sign-in';
    if (isHome(final)) return 'home';
    return 'not-found';
  }
  if (redirected && isHome(final) && missingRedirected && isHome(missingFinal)) return 'home';
  if (saysNotFound(page.title) || saysNotFound(page.heading)) return 'not-found';
  const similarity = textSimilarity(page.text, missing.text);
  if (similarity !== null && similarity >= SAME_PAGE_SIMILARITY && normalise(page.title) === normalise(missing.title)) return 'not-found';
  return null;
}
