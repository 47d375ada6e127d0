// The hot path: checks every distinct address of a run once. Keep-alive connections, a cap per host
// and overall, HEAD first and GET when HEAD is refused, redirects followed through the address
// guard, Retry-After honoured, jittered retries for 5xx, 429 and timeouts, a time limit on every
// request. The Brightspace site's own addresses are checked with the session. Pages that links
// point into with a #fragment are read once each (up to a size limit) for their ids and names.
//
// Links that answer 200 may still be dead: a site can answer a missing page with 200 and "Page not
// found", or send it to its home or sign-in page. Once per host per run, the checker asks the host
// for an address that surely does not exist; a host that answers it honestly (404, 410...) is taken
// at its word. On a host that answers it with a page, each HTML link's page is read too (its start)
// and handed on with the host's answer, for checks/ to compare.
import { randomUUID } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import PQueue from 'p-queue';
import { isAppError } from '../errors.ts';
import { msg, type Message } from '../i18n/messages.ts';
import { headerValue, NetworkFailure, type GuardedHttpClient, type HttpResponse } from './guarded-http.ts';
import { backoffMs, retryAfterMs, sleep } from './retry.ts';

export type LinkOutcome = 'ok' | 'broken' | 'unreachable' | 'unverifiable';

/** The result of checking one distinct address: one pure classification of what it answered. */
export interface LinkProbe {
  outcome: LinkOutcome;
  /** The last HTTP status seen, when there was an answer. */
  status: number | null;
  /** Where a permanent redirect leads, when the address answered with one first. */
  movedTo: string | null;
  /** The answer came at the end of redirects (of any kind): a verdict cache asks such a link again. */
  redirected?: true;
  /** A sentence for the report: what happened. */
  detail: Message;
  /**
   * For a link that answered with a page on a host that answers a surely missing address with a
   * page too: both pages, to judge whether the link's is a "not found" page in disguise.
   */
  lookalike?: { page: PageSnapshot; missing: PageSnapshot };
}

/** A page as the checker saw it: the address it ended at, its status and what it says of itself. */
export interface PageSnapshot {
  /** The address asked for. */
  requested: string;
  /** The address it ended at, after redirects. */
  url: string;
  status: number;
  title: string;
  heading: string;
  text: string;
}

/** What a page says of itself (an HTML parser's reading). */
export interface PageFacts {
  title: string;
  heading: string;
  text: string;
}

/** Enough of a page to know what it is; the rest is not read. */
const LOOKALIKE_BYTES = 256 * 1024;
const HTML_TYPES = /html/i;

/** A page read for its anchors beyond this size is not judged: its fragments are not reported. */
export const MAX_ANCHOR_PAGE_BYTES = 5 * 1024 * 1024;
const ANCHOR_TYPES = /html|svg|xml/i;

export interface LinkCheckLimits {
  /** Requests in flight overall. */
  maxConcurrency: number;
  /** Requests in flight to one host (host:port). */
  perHost: number;
  /** Retries after a 5xx, a 429 or a timeout. */
  retries: number;
  /** Base of the exponential backoff; each wait adds up to this much random jitter. */
  backoffMs: number;
  /** A Retry-After longer than this is not waited for: the link is reported as rate limited. */
  maxRetryAfterMs: number;
}

// Ten at once per host, as lychee does, keeps every site safe. The overall cap only protects this
// process, so it is high: with slow sites in a course, 512 requests in flight finish the links about
// twice as fast as linkinator's 100 (docs/benchmarks.md) with no more memory. Node raises the
// open-file limit to the hard limit at start, so 512 sockets fit on Linux and in Fargate.
export const DEFAULT_LINK_LIMITS: LinkCheckLimits = {
  maxConcurrency: 512,
  perHost: 10,
  retries: 2,
  backoffMs: 500,
  maxRetryAfterMs: 30_000,
};

const UNVERIFIABLE_STATUSES = new Set([401, 403, 407, 999]);
const HEADERS = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'accept-language': 'en;q=0.9, *;q=0.5',
};

interface HostState {
  /** The host's requests, at most `perHost` at once; paused while the host asks for a pause (429). */
  queue: PQueue;
  pausedUntil: number;
  wake: NodeJS.Timeout | undefined;
}

export interface LinkCheckerOptions {
  http: GuardedHttpClient;
  limits?: Partial<LinkCheckLimits>;
  /** Session headers for an address (the cookie goes to the Brightspace site's origin only). */
  headersFor?: (url: URL) => Record<string, string>;
  /** The Brightspace site: its own sign-in page is not a page a link should lead to. */
  siteOrigin?: URL;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** The ids and names a page's markup defines, for links with a #fragment (an HTML parser's). */
  anchorsOf: (markup: string) => Set<string>;
  /** A page's title, main heading and text; without it no page is compared with its host's "not found" answer. */
  pageFactsOf?: (markup: string) => PageFacts;
  /** An earlier run's answer that may stand for an address (the engine decides which); asked over the network otherwise. */
  earlierAnswer?: (url: string) => LinkProbe | undefined;
  /** Told each answer asked over the network this run, to keep for the next. */
  onAnswer?: (url: string, probe: LinkProbe) => void;
}

export class LinkChecker {
  readonly #options: LinkCheckerOptions;
  readonly #limits: LinkCheckLimits;
  readonly #results = new Map<string, Promise<LinkProbe>>();
  readonly #anchors = new Map<string, Promise<Set<string> | null>>();
  readonly #hosts = new Map<string, HostState>();
  /** Each origin's answer to an address that surely does not exist; null when it answered honestly (or not at all). */
  readonly #missing = new Map<string, Promise<PageSnapshot | null>>();
  /** One path per run that no site has: a fresh random name. */
  readonly #missingPath = `/${randomUUID()}-ctpo-missing-page`;
  /** Requests in flight overall; a request takes its host's slot first, then one of these. */
  readonly #overall: LimitFunction;
  #done = 0;

  constructor(options: LinkCheckerOptions) {
    this.#options = options;
    this.#limits = { ...DEFAULT_LINK_LIMITS, ...options.limits };
    this.#overall = pLimit(this.#limits.maxConcurrency);
  }

  /** Distinct addresses asked for so far. */
  get total(): number {
    return this.#results.size;
  }

  get done(): number {
    return this.#done;
  }

  /** Checks an address once per run; asking again returns the same result. */
  check(url: string): Promise<LinkProbe> {
    let result = this.#results.get(url);
    if (result === undefined) {
      const earlier = this.#options.earlierAnswer?.(url);
      const probing = earlier === undefined ? this.#probe(new URL(url)).then((probe) => (this.#options.onAnswer?.(url, probe), probe)) : Promise.resolve(earlier);
      result = probing.finally(() => {
        this.#done++;
        this.#options.onProgress?.(this.#done, this.#results.size);
      });
      this.#results.set(url, result);
    }
    return result;
  }

  /**
   * The ids and names of the page at an address, read once per run whatever the number of
   * fragments pointing into it; null when it is not an HTML or SVG page that could be read whole.
   */
  anchors(url: string): Promise<Set<string> | null> {
    let result = this.#anchors.get(url);
    if (result === undefined) {
      result = this.#readAnchors(new URL(url));
      this.#anchors.set(url, result);
    }
    return result;
  }

  async #readAnchors(url: URL): Promise<Set<string> | null> {
    try {
      const { response } = await this.#send(url.host, () => this.#options.http.follow(
        { url, method: 'GET', headers: HEADERS, signal: this.#options.signal, readBodyLimit: MAX_ANCHOR_PAGE_BYTES },
        { headersFor: this.#options.headersFor, maxRedirects: 10 },
      ));
      if (response.status !== 200 || !ANCHOR_TYPES.test(headerValue(response.headers, 'content-type') ?? '')) return null;
      return this.#options.anchorsOf(response.body ?? '');
    } catch {
      if (this.#options.signal?.aborted) throw this.#options.signal.reason;
      // The probe of the same address reports what went wrong; a page that cannot be read whole is not judged.
      return null;
    }
  }

  async #probe(url: URL): Promise<LinkProbe> {
    // The host's answer to a missing address is asked with its first link, not after it: the
    // request joins the host's queue early and is there when the first page needs comparing.
    if (this.#options.pageFactsOf !== undefined && url.origin !== this.#options.siteOrigin?.origin) void this.#missingAnswer(url);
    let method: 'HEAD' | 'GET' = 'HEAD';
    for (let attempt = 0; ; ) {
      let outcome: { response: HttpResponse; movedTo: string | null; redirected: boolean } | { error: unknown };
      try {
        const followed = await this.#send(url.host, () => this.#options.http.follow(
          { url, method, headers: HEADERS, signal: this.#options.signal },
          { headersFor: this.#options.headersFor, maxRedirects: 10 },
        ));
        const first = followed.redirects[0];
        const movedTo = first && (first.status === 301 || first.status === 308) ? followed.response.url.href : null;
        outcome = { response: followed.response, movedTo, redirected: followed.redirects.length > 0 };
      } catch (error) {
        outcome = { error };
      }

      if ('error' in outcome) {
        const { error } = outcome;
        if (this.#options.signal?.aborted) throw this.#options.signal.reason;
        if (isAppError(error)) {
          const detail = error.code === 'address_not_allowed'
            ? msg('finding.link.private-network')
            : msg('finding.link.redirect-uncheckable', { problem: error.text });
          return { outcome: 'unverifiable', status: null, movedTo: null, detail };
        }
        if (error instanceof NetworkFailure) {
          if ((error.kind === 'timeout' || error.kind === 'reset') && attempt < this.#limits.retries) {
            attempt++;
            await sleep(backoffMs(attempt, this.#limits.backoffMs), { signal: this.#options.signal });
            continue;
          }
          if (error.kind === 'redirects') {
            return { outcome: 'broken', status: null, movedTo: null, detail: msg('finding.link.redirect-loop') };
          }
          const detail = attempt > 0 ? msg('finding.link.unreachable-tried', { problem: error.text, tries: attempt + 1 }) : error.text;
          return { outcome: 'unreachable', status: null, movedTo: null, detail };
        }
        throw error;
      }

      const { response, movedTo } = outcome;
      const status = response.status;
      // Many servers answer HEAD wrongly; a GET has the last word before a link is called broken.
      if (method === 'HEAD' && status >= 400 && status !== 429) {
        method = 'GET';
        continue;
      }
      if (status === 429 || status >= 500) {
        const retryAfter = retryAfterMs(headerValue(response.headers, 'retry-after'));
        if (attempt < this.#limits.retries && (retryAfter === null || retryAfter <= this.#limits.maxRetryAfterMs)) {
          attempt++;
          const wait = retryAfter ?? backoffMs(attempt, this.#limits.backoffMs);
          if (status === 429) this.#pauseHost(url.host, wait);
          await sleep(wait, { signal: this.#options.signal });
          continue;
        }
        if (status === 429) {
          return { outcome: 'unverifiable', status, movedTo: null, detail: msg('finding.link.rate-limited') };
        }
        return { outcome: 'broken', status, movedTo: null, detail: msg('finding.link.server-error', { status }) };
      }
      if (UNVERIFIABLE_STATUSES.has(status) || (status === 403 && headerValue(response.headers, 'cf-mitigated'))) {
        return { outcome: 'unverifiable', status, movedTo: null, detail: msg('finding.link.refuses-checks', { status }) };
      }
      const site = this.#options.siteOrigin;
      if (site && response.url.origin === site.origin && /^\/d2l\/login/i.test(response.url.pathname) && !/^\/d2l\/login/i.test(url.pathname)) {
        return { outcome: 'unverifiable', status, movedTo: null, detail: msg('finding.link.needs-sign-in') };
      }
      if (status >= 400) {
        return { outcome: 'broken', status, movedTo: null, detail: msg(status === 404 || status === 410 ? 'finding.link.not-found' : 'finding.link.refused', { status }) };
      }
      const ok: LinkProbe = { outcome: 'ok', status, movedTo, ...(outcome.redirected ? { redirected: true as const } : {}), detail: msg('finding.link.ok') };
      const lookalike = await this.#lookalike(url, response, method);
      return lookalike === null ? ok : { ...ok, lookalike };
    }
  }

  /**
   * The page a link answered with and its host's answer to a surely missing address, when the host
   * answers that with a page (else there is nothing to compare: null). Never for the Brightspace
   * site, whose pages are read with the session, nor for anything but HTML.
   */
  async #lookalike(url: URL, response: HttpResponse, method: 'HEAD' | 'GET'): Promise<{ page: PageSnapshot; missing: PageSnapshot } | null> {
    const { pageFactsOf, siteOrigin } = this.#options;
    if (pageFactsOf === undefined || url.origin === siteOrigin?.origin) return null;
    if (!HTML_TYPES.test(headerValue(response.headers, 'content-type') ?? '')) return null;
    const missing = await this.#missingAnswer(url);
    if (missing === null) return null;
    // A HEAD answer has no page to read: one GET of its start.
    const page = method === 'GET' && response.body !== null ? snapshot(url, response, pageFactsOf) : await this.#snapshot(url);
    return page === null ? null : { page, missing };
  }

  /** The host's answer to an address that surely does not exist, asked once per origin per run. */
  #missingAnswer(url: URL): Promise<PageSnapshot | null> {
    let answer = this.#missing.get(url.origin);
    if (answer === undefined) {
      // Asked ahead of need, so it never rejects (a run cut short leaves it unanswered: null).
      answer = this.#snapshot(new URL(this.#missingPath, url.origin)).then(
        (page) => (page !== null && page.status >= 200 && page.status < 300 ? page : null),
        () => null,
      );
      this.#missing.set(url.origin, answer);
    }
    return answer;
  }

  /** One GET of a page's start, through the host's limits and the guard; null when it gave no page. */
  async #snapshot(url: URL): Promise<PageSnapshot | null> {
    const { pageFactsOf } = this.#options;
    if (pageFactsOf === undefined) return null;
    try {
      const { response } = await this.#send(url.host, () => this.#options.http.follow(
        { url, method: 'GET', headers: HEADERS, signal: this.#options.signal, readBodyLimit: LOOKALIKE_BYTES, truncateBody: true },
        { headersFor: this.#options.headersFor, maxRedirects: 10 },
      ));
      return snapshot(url, response, pageFactsOf);
    } catch {
      if (this.#options.signal?.aborted) throw this.#options.signal.reason;
      return null;
    }
  }

  #host(host: string): HostState {
    let state = this.#hosts.get(host);
    if (state === undefined) {
      state = { queue: new PQueue({ concurrency: this.#limits.perHost }), pausedUntil: 0, wake: undefined };
      this.#hosts.set(host, state);
    }
    return state;
  }

  /**
   * One request within the caps: its host's (and the host's pause), then the overall one. Hosts take
   * turns at the overall cap, as no host has more than `perHost` requests waiting for it.
   */
  #send<T>(host: string, request: () => Promise<T>): Promise<T> {
    return this.#host(host).queue.add(() => this.#overall(request));
  }

  /** Holds the host's waiting requests until `ms` from now; requests under way go on. */
  #pauseHost(host: string, ms: number): void {
    const state = this.#host(host);
    const until = Date.now() + ms;
    if (until <= state.pausedUntil) return;
    state.pausedUntil = until;
    state.queue.pause();
    clearTimeout(state.wake);
    state.wake = setTimeout(() => state.queue.start(), ms);
  }
}

function snapshot(requested: URL, response: HttpResponse, pageFactsOf: (markup: string) => PageFacts): PageSnapshot {
  const html = HTML_TYPES.test(headerValue(response.headers, 'content-type') ?? '');
  const facts = html ? pageFactsOf(response.body ?? '') : { title: '', heading: '', text: '' };
  return { requested: requested.href, url: response.url.href, status: response.status, ...facts };
}
