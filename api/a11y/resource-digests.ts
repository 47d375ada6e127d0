// What a page loaded, as digests: the address of each request a rendered page made, with a digest of
// the answer it got (its status and bytes, or why it was refused). A verdict on a page holds only
// while every one of these still answers the same, so the engine keeps the list with the verdict and
// asks each address again (through the same PageResources) before it reuses one.
import { createHash } from 'node:crypto';
import type { PageAnswer, PageRequest } from './page-resources.ts';

/** One request a page made and a digest of its answer. */
export interface LoadedResource {
  url: string;
  method: string;
  /** Chromium's resource type (stylesheet, image, font...): PageResources answers some types apart. */
  resourceType: string;
  /** The item's HTML or a stylesheet named it (PageRequest.named): asked again the same way. */
  named?: true;
  digest: string;
}

/** What a rendered item's document uses, as the browser reports it after the checks. */
export interface UsedByDocument {
  /** The addresses of its images, stylesheets (imports included) and embedded documents. */
  images: string[];
  sheets: string[];
  embeds: string[];
  /** Some stylesheet's rules could not be read (another origin's): its imports are unknown. */
  opaqueSheets: boolean;
}

/**
 * What an item written into a kept document loaded: what it asked for itself, and what the document
 * loaded for earlier items that it uses too (the browser serves an image or a stylesheet it already
 * has without asking again). What a stylesheet loads (fonts, backgrounds, imports) is not named by
 * the document, so once the item uses a stylesheet the document had, every font and every image that
 * is no <img> of the item is counted too: more than it may use, never less.
 */
export function resourcesOfItem(document: readonly LoadedResource[], askedNow: ReadonlySet<string>, used: UsedByDocument): LoadedResource[] {
  const images = new Set(used.images);
  const sheets = new Set(used.sheets);
  const embeds = new Set(used.embeds.map((url) => url.split('#')[0]!));
  const sheetFromBefore = document.some((entry) => entry.resourceType === 'stylesheet' && sheets.has(entry.url) && !askedNow.has(entry.url));
  return document.filter((entry) => {
    if (askedNow.has(entry.url) || images.has(entry.url) || sheets.has(entry.url) || embeds.has(entry.url)) return true;
    if (!sheetFromBefore && !used.opaqueSheets) return false;
    if (entry.resourceType === 'font') return true;
    if (entry.resourceType === 'image') return !images.has(entry.url);
    return entry.resourceType === 'stylesheet' && used.opaqueSheets;
  });
}

/**
 * The addresses a stylesheet's text imports (`@import url(...)`, `@import "..."`), absolute. Read
 * loosely: an import in a comment is counted too, which costs a check, never a stale verdict.
 */
export function stylesheetImports(text: string, sheetUrl: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/@import\s+(?:url\(\s*)?["']?([^"')\s;]+)/gi)) {
    try {
      found.push(new URL(match[1]!, sheetUrl).href);
    } catch {
      // not an address
    }
  }
  return found;
}

/** A digest of what a page was answered: the status, the content type and the bytes, or the kind of refusal. */
export function answerDigest(answer: PageAnswer): string {
  if (!answer.ok) return `refused:${answer.error}`;
  const hash = createHash('sha256');
  hash.update(`${answer.status}\u0000${answer.headers['content-type'] ?? ''}\u0000${answer.standIn === true ? 'stand-in' : ''}\u0000`);
  hash.update(answer.body);
  return hash.digest('base64url');
}

/** Asks again what a page loaded and says whether every answer is the same as before. */
export async function resourcesUnchanged(loaded: readonly LoadedResource[], answer: (request: PageRequest) => Promise<PageAnswer>): Promise<boolean> {
  const digests = await Promise.all(loaded.map(async ({ url, method, resourceType, named }) => answerDigest(await answer({ url, method, resourceType, headers: {}, ...(named ? { named } : {}) }))));
  return digests.every((digest, index) => digest === loaded[index]!.digest);
}
