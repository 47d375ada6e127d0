// Lists from the Valence API, whichever of its three forms a route answers with: a bare JSON array;
// an ObjectListPage `{ Objects, Next }` whose Next is an absolute or relative address (null or ""
// at the end); or a PagedResultSet `{ PagingInfo: { Bookmark, HasMoreItems }, Items }` continued
// with `?bookmark=`. Pages are followed on the site's own origin only, and a loop stops.
import { isRecord } from './valence-fields.ts';
import type { ApiAnswer, BrightspaceSession } from './session.ts';

/** A list route's every item, or why it could not be read (the failing page's answer). */
export type ListAnswer =
  | { ok: true; items: unknown[]; pages: number }
  | (Extract<ApiAnswer, { ok: false }> & { pages: number });

const MAX_PAGES = 1_000;

type Page = { items: unknown[]; next: URL | null } | null;

/** One page read as whichever form it is in; null when it is not a list at all. */
export function readPage(body: unknown, url: URL): Page {
  if (Array.isArray(body)) return { items: body, next: null };
  if (!isRecord(body)) return null;
  if (Array.isArray(body.Objects)) {
    const next = typeof body.Next === 'string' && body.Next.trim() !== '' ? body.Next.trim() : null;
    try {
      return { items: body.Objects, next: next === null ? null : new URL(next, url) };
    } catch {
      return null;
    }
  }
  if (Array.isArray(body.Items)) {
    const paging = isRecord(body.PagingInfo) ? body.PagingInfo : {};
    const bookmark = typeof paging.Bookmark === 'string' || typeof paging.Bookmark === 'number' ? String(paging.Bookmark) : '';
    if (paging.HasMoreItems !== true || bookmark === '') return { items: body.Items, next: null };
    const next = new URL(url);
    next.searchParams.set('bookmark', bookmark);
    return { items: body.Items, next };
  }
  return null;
}

export async function readList(session: BrightspaceSession, first: URL): Promise<ListAnswer> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  let url: URL | null = first;
  let pages = 0;
  while (url !== null) {
    if (seen.has(url.href) || pages >= MAX_PAGES || url.origin !== session.origin.origin) {
      return { ok: false, status: 200, problem: 'unreadable', url, pages };
    }
    seen.add(url.href);
    const answer = await session.getJson(url);
    if (!answer.ok) return { ...answer, pages };
    pages++;
    const page = readPage(answer.body, url);
    if (page === null) return { ok: false, status: 200, problem: 'unreadable', url, pages };
    items.push(...page.items);
    url = page.next;
  }
  return { ok: true, items, pages };
}
