// Answers every request a page in the headless browser makes (browser-runner.ts): the browser has no
// network of its own. Each address goes through the address guard and the guarded HTTP client; the
// Brightspace session is added for the run's own course files only (never in the browser, which has
// no cookie); what a page does not need to be checked (media, frames of other sites, beacons, any
// method but GET and HEAD) is refused at once, and everything else has a short time limit, so that
// nothing a page loads can hold a topic up. Answers the same for every topic (a template's
// stylesheet, a logo) are kept for the run.
//
// Embedded documents (frames, objects) and media of the course site answer with its real status, so that a
// missing file is missing as the browser sees it; their content is not loaded (the page is checked,
// not what it embeds): a found document is an empty page, a found video is not downloaded. Where the
// real status cannot be had (the guard refuses the address, the site does not answer in time), an
// empty page stands in, marked as such: the runner does not count verdicts that depend on it.
//
// The session goes to the files of the course under test (`/content/enforced/<org unit>-<code>/`),
// whoever asks for them, and to the site's shared templates (`/shared/`) only for the addresses the
// item's HTML and the stylesheets it loads name (as stylesheets, images, fonts, scripts), never for
// a script's fetch or XMLHttpRequest nor for an element a script made for another address: a course
// page's script cannot read another course's files, nor a template's file it could send elsewhere. An answer read with the session is kept only for requests that would
// have got it.
import { isAppError } from '../errors.ts';
import type { GuardedHttpClient, IncomingHttpHeaders } from '../net/guarded-http.ts';

export interface PageRequest {
  url: string;
  method: string;
  /** Chromium's resource type: document, stylesheet, image, media, font, script, fetch, xhr... */
  resourceType: string;
  /** Headers the page sent; only a few harmless ones are passed on. */
  headers: Record<string, string>;
  /**
   * The item's HTML, or a stylesheet it loaded, names this address (addressesNamedIn): only then may
   * a shared template's file be read with the session. A page's script can create a stylesheet, a
   * script or an image element for any address and read what it loads, so the resource type alone
   * says nothing about who chose the address.
   */
  named?: boolean;
}

export type PageAnswer =
  /** `standIn`: an empty page answered for an embedded document whose real answer could not be had. */
  | { ok: true; status: number; headers: Record<string, string>; body: Buffer; standIn?: true }
  /** `blocked`: the guard or our rules refused it; `failed`: it could not be loaded. */
  | { ok: false; error: 'blocked' | 'failed' | 'timedout' };

export interface PageResourcesOptions {
  http: GuardedHttpClient;
  /** The Brightspace site. */
  siteOrigin: URL;
  /** The course under test: only its own files (and the site's templates a page names) are read with the session. */
  orgUnitId: number;
  /** The session's headers for an address of the site (the cookie), or none. */
  sessionHeaders: (url: URL) => Record<string, string>;
  /** Time limit of one request (default 10 s); fonts and embedded documents get less (default 5 s), since a page's load waits for them. */
  timeoutMs?: number;
  fontTimeoutMs?: number;
  signal?: AbortSignal;
}

/** Says who is asking, apart from the link checker: site operators can tell the two apart. */
export const RENDERING_USER_AGENT = 'CTPO/0.1 (Course Testing Protocol Observer; loads course pages for accessibility checks)';

/** Where a course site keeps its shared templates, which every course's pages name. */
const SHARED_PATH = '/shared/';
/** What a page's HTML and stylesheets name (and may read with the session from the shared templates); never a script's fetch or XMLHttpRequest. */
const NAMED_TYPES = new Set(['stylesheet', 'image', 'font', 'script']);
/**
 * An escaped slash, backslash or dot in a path: a server that decodes them would read another
 * course's file from an address that looks like one of ours, so such an address gets no session.
 */
const ESCAPED_SEPARATOR = /%(?:2f|5c|2e)|\\/i;
const REFUSED_TYPES = new Set(['websocket', 'eventsource', 'manifest', 'ping', 'texttrack', 'other', 'cspreport']);
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const CACHE_ENTRY_BYTES = 2 * 1024 * 1024;
const CACHE_BYTES = 48 * 1024 * 1024;
const PASSED_REQUEST_HEADERS = ['accept', 'accept-language', 'origin', 'range'];
// The answer goes to the page as it came, less what would set state in the browser or no longer
// describes the body.
const DROPPED_RESPONSE_HEADERS = new Set(['set-cookie', 'set-cookie2', 'content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'clear-site-data', 'alt-svc']);

/** An empty document for a frame or an object: the page is checked, not the other sites it embeds. */
const EMPTY_FRAME = { ok: true as const, status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from('<!doctype html><title></title>') } satisfies PageAnswer;
/** What embeds another document or media: answered with its real status, not its content. */
const EMBEDDED_TYPES = new Set(['document', 'media']);

function responseHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name)) continue;
    kept[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}

export class PageResources {
  readonly #options: PageResourcesOptions;
  readonly #cache = new Map<string, Promise<PageAnswer>>();
  /** The real status of each embedded document or media, null where it could not be had; kept for the run. */
  readonly #statuses = new Map<string, Promise<number | null>>();
  #cachedBytes = 0;
  /** Requests answered, and refused, for the figures of a run; embedded documents answered by a stand-in. */
  answered = 0;
  refused = 0;
  standIns = 0;

  /** The course's own files: Brightspace keeps them under `/content/enforced/<org unit>-<code>/`. */
  readonly #coursePath: string;

  constructor(options: PageResourcesOptions) {
    this.#options = options;
    this.#coursePath = `/content/enforced/${options.orgUnitId}-`;
  }

  /**
   * Whether an address is read with the session: the course's own files, and the shared templates
   * when `named` (the request is for something a page's HTML or stylesheets name). The org unit's
   * path is matched whole, so `/content/enforced/66-X/` is not org unit 6606's.
   */
  #readsWithSession(url: URL, named: boolean): boolean {
    if (url.origin !== this.#options.siteOrigin.origin || ESCAPED_SEPARATOR.test(url.pathname)) return false;
    if (url.pathname.startsWith(this.#coursePath) && /^[^/]+\//.test(url.pathname.slice(this.#coursePath.length))) return true;
    return named && url.pathname.startsWith(SHARED_PATH);
  }

  #sessionFor(named: boolean): (hop: URL) => Record<string, string> {
    return (hop) => (this.#readsWithSession(hop, named) ? this.#options.sessionHeaders(hop) : {});
  }

  async answer(request: PageRequest): Promise<PageAnswer> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return this.#refuse();
    }
    const method = request.method.toUpperCase();
    if (EMBEDDED_TYPES.has(request.resourceType)) return this.#embedded(url, request.resourceType === 'media', method);
    if ((method !== 'GET' && method !== 'HEAD') || REFUSED_TYPES.has(request.resourceType)) return this.#refuse();
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return this.#refuse();

    const headers: Record<string, string> = {};
    for (const name of PASSED_REQUEST_HEADERS) {
      const value = request.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    const timeoutMs = request.resourceType === 'font' ? (this.#options.fontTimeoutMs ?? 5_000) : (this.#options.timeoutMs ?? 10_000);
    const cacheable = method === 'GET' && headers.range === undefined;
    const named = request.named === true && NAMED_TYPES.has(request.resourceType);
    // Whether the shared templates were read with the session is part of the key: such an answer
    // is never handed to a script's fetch of the same address.
    const key = `${named ? 'named' : 'fetched'}\u0000${url.href}\u0000${headers.origin ?? ''}`;
    if (cacheable) {
      const cached = this.#cache.get(key);
      if (cached !== undefined) return cached;
    }
    const pending = this.#fetch(url, method, headers, timeoutMs, named);
    if (!cacheable) return pending;
    this.#cache.set(key, pending);
    const answer = await pending;
    // Only a complete, small, successful answer is kept; anything else is asked again next time.
    if (!answer.ok || answer.status !== 200 || answer.body.length > CACHE_ENTRY_BYTES || this.#cachedBytes + answer.body.length > CACHE_BYTES) {
      this.#cache.delete(key);
    } else {
      this.#cachedBytes += answer.body.length;
    }
    return answer;
  }

  /** A frame's, an object's or a video's answer: its real status, without its content. */
  async #embedded(url: URL, media: boolean, method: string): Promise<PageAnswer> {
    const web = url.protocol === 'http:' || url.protocol === 'https:';
    let status: Promise<number | null> | undefined = this.#statuses.get(url.href);
    if (status === undefined) {
      // Only the course site's own files are asked: another site's frame, object or video is listed
      // for a person to check (sources/frames.ts) and is never loaded for the page, not even its status.
      const own = url.origin === this.#options.siteOrigin.origin;
      status = web && own && (method === 'GET' || method === 'HEAD') ? this.#status(url) : Promise.resolve(null);
      this.#statuses.set(url.href, status);
    }
    const found = await status;
    if (found === null) {
      if (media) return { ok: false, error: 'failed' };
      this.standIns++;
      return { ...EMPTY_FRAME, standIn: true };
    }
    // A found video is not downloaded: an empty 200 would keep the browser waiting for its data, and
    // a media element that waits holds the page's load event, so the browser is told it failed (no
    // check judges whether a video loaded). A missing one answers with its status, as the site does.
    if (found >= 200 && found < 300) return media ? { ok: false, error: 'failed' } : EMPTY_FRAME;
    return { ok: true, status: found, headers: media ? {} : { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.alloc(0) };
  }

  /** The status the site answers for an address (the body is not read), or null when it cannot be had. */
  async #status(url: URL): Promise<number | null> {
    const { http, signal } = this.#options;
    try {
      const { response } = await http.follow(
        { url, method: 'GET', headers: { 'user-agent': RENDERING_USER_AGENT }, timeoutMs: this.#options.fontTimeoutMs ?? 5_000, signal },
        // A frame, object or video is named by the page; only its status reaches the page.
        { maxRedirects: 5, headersFor: this.#sessionFor(true) },
      );
      this.answered++;
      return response.status;
    } catch {
      return null;
    }
  }

  #refuse(): PageAnswer {
    this.refused++;
    return { ok: false, error: 'blocked' };
  }

  async #fetch(url: URL, method: string, headers: Record<string, string>, timeoutMs: number, named: boolean): Promise<PageAnswer> {
    const { http, signal } = this.#options;
    try {
      const { response } = await http.follow(
        { url, method: method === 'HEAD' ? 'HEAD' : 'GET', headers: { ...headers, 'user-agent': RENDERING_USER_AGENT }, timeoutMs, signal, readBodyLimit: MAX_BODY_BYTES, readBodyAs: 'bytes' },
        { maxRedirects: 5, headersFor: this.#sessionFor(named) },
      );
      this.answered++;
      return { ok: true, status: response.status, headers: responseHeaders(response.headers), body: response.bytes ?? Buffer.alloc(0) };
    } catch (error) {
      if (isAppError(error)) return this.#refuse();
      const kind = (error as { kind?: unknown } | null)?.kind;
      return { ok: false, error: kind === 'timeout' ? 'timedout' : 'failed' };
    }
  }
}

// A start tag with its attributes, each value consumed whole (so an address inside an event
// handler's text is not taken for an attribute); then one attribute of it.
const START_TAG = /<[a-z][^\s/>]*((?:\s+[^\s=>"'/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>"']+))?)*)\s*\/?>/giu;
const ATTRIBUTE = /\s+([^\s=>"'/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/gu;
const ADDRESS_ATTRIBUTES = new Set(['src', 'href', 'poster', 'data', 'background']);
const SRCSET_ATTRIBUTES = new Set(['srcset', 'imagesrcset']);
const CSS_ADDRESS = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')/giu;
/** What a page's scripts and comments say is not what the page names. */
const NOT_MARKUP = /<script\b[\s\S]*?<\/script\s*>|<!--[\s\S]*?-->/giu;

const decodeReferences = (value: string) => value.replace(/&quot;|&#34;/gu, '"').replace(/&#39;|&apos;/gu, "'").replace(/&amp;/gu, '&');

/**
 * The addresses a page's HTML (its elements' address attributes, inline styles and style elements)
 * or a stylesheet's text names, resolved against `base`: what the page itself asks for, as opposed to
 * what its scripts make up. A script that builds one of these addresses gets only what the page
 * uses anyway.
 */
export function addressesNamedIn(text: string, base: string): string[] {
  const found: string[] = [];
  const add = (raw: string | undefined) => {
    if (raw === undefined || raw.trim() === '') return;
    try {
      found.push(new URL(raw.trim(), base).href);
    } catch {
      // not an address
    }
  };
  const markup = text.replace(NOT_MARKUP, ' ');
  const styles: string[] = [markup.replace(START_TAG, ' ')];
  for (const tag of markup.matchAll(START_TAG)) {
    for (const attribute of (tag[1] ?? '').matchAll(ATTRIBUTE)) {
      const name = attribute[1]!.toLowerCase();
      const value = attribute[2] ?? attribute[3] ?? attribute[4];
      if (value === undefined) continue;
      if (ADDRESS_ATTRIBUTES.has(name)) add(decodeReferences(value));
      else if (SRCSET_ATTRIBUTES.has(name)) for (const candidate of decodeReferences(value).split(',')) add(candidate.trim().split(/\s+/u)[0]);
      else if (name === 'style') styles.push(decodeReferences(value));
    }
  }
  // Style elements' text, inline styles, and a stylesheet's own text.
  for (const style of styles) for (const match of style.matchAll(CSS_ADDRESS)) add(match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5]);
  return found;
}
