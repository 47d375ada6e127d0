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
  digest: string;
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
  const digests = await Promise.all(loaded.map(async ({ url, method, resourceType }) => answerDigest(await answer({ url, method, resourceType, headers: {} }))));
  return digests.every((digest, index) => digest === loaded[index]!.digest);
}
