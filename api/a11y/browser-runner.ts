// axe-core in headless Chromium (playwright-core driving a system Chromium): each item is rendered as
// a student's browser renders it, at its own address, 1280x800, with its stylesheets, images, fonts
// and scripts, so that contrast, layout and what a template's script builds are judged as students
// see them. One browser per run and a small pool of pages; every request a page makes is answered
// by the engine (page-resources.ts), never by the browser's own network, and the Brightspace session
// never enters the browser.
//
// The engines and the page checks' probes run in an isolated JavaScript world of the page
// (page-world.ts), never in the page's own: a page's scripts cannot replace them or their results.
//
// Speed: loading axe into a fresh document costs more than running it, so a page keeps its document
// and axe between items and writes each new item into it (the address set to the item's own first).
// An item with scripts of its own (or event handlers, or a refresh) gets a fresh document instead,
// and the page gets a fresh one again after it, so no item's scripts see another's.
//
// Priority: the browser's rendering is the bulk of a run's CPU, while the engine's own work waits on
// other machines (link checks, the site's API) and the API server answers users; the browser comes
// last. See lowerBrowserPriority.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import type { Browser, BrowserContext, CDPSession, Page, Route } from 'playwright-core';
import { chromium } from 'playwright-core';
import pLimit, { type LimitFunction } from 'p-limit';
import { AppError } from '../errors.ts';
import { bcp47Of, type Language } from '../i18n/languages.ts';
import { msg } from '../i18n/messages.ts';
import { sleep } from '../net/retry.ts';
import { withPageFacts } from './page-checks/collect-page-facts.ts';
import type { PageCheckOutcome } from './page-checks/page-facts.ts';
import { BROWSER_NICENESS, type A11yItem, type AccessibilityRunner } from './a11y-runner.ts';
import { AXE_EXAMPLES, AXE_SOURCE, axeLocaleOf, axeRulesFor, axeRunOptions, summarizeAxeResults, type AxeOutcome } from './axe-rules.ts';
import { IBM_ENGINE, ibmSource, ibmRunArguments, runIbmInPage, summarizeIbmResults, type IbmPageResult } from './ibm-rules.ts';
import { addressesNamedIn, type PageResources } from './page-resources.ts';
import { answerDigest, resourcesOfItem, stylesheetImports, type LoadedResource } from './resource-digests.ts';
import { PageWorld } from './page-world.ts';
import { sandboxedLaunchOptions } from './sandboxed-chromium.ts';

export interface BrowserRunnerOptions {
  executablePath: string;
  /** Answers the pages' requests. */
  resources: PageResources;
  /** axe writes its help texts in this language where it has it. */
  language?: Language;
  enhancedContrast: boolean;
  /** Pages checking items at once (default 2). */
  pages?: number;
  /** Time limit of one item, from handing it to a page to axe's answer (default 30 s). */
  timeoutMs?: number;
  /** Nice steps the browser's scheduling group stays below this process (default BROWSER_NICENESS); null leaves it as it starts. */
  niceness?: number | null;
  /**
   * IBM's Equal Access engine beside axe-core in each page (default true); false runs axe alone (the
   * benchmark's figure of today's time). A string is run instead of IBM's own script (tests of an
   * engine that throws or hangs).
   */
  ibm?: boolean | string;
}

/**
 * Chromium keeps only the last --enable-features and the last --disable-features it is given, so
 * ours would drop the lists playwright-core passes first (chromiumSwitches in its Chromium
 * launcher): these repeat them, and a test checks that they still hold all of playwright-core's.
 */
const PLAYWRIGHT_ENABLED_FEATURES = ['CDPScreenshotNewSurface', 'SkipListAccountsWithoutGaiaCookies'];
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Headless Chromium still builds a browser window for each context, and its address bar preloads
 * its two pop-ups (suggestions, AI mode) as web pages, each in a renderer of its own: 30-70 MB
 * apiece, two per page of the pool, that nobody ever sees. And Chromium keeps a spare renderer
 * ready for the next site opened, which our pages never open (each stays on its course's site).
 */
const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess'];

/**
 * Headless, no network of its own: host names resolve to nothing (a preconnect or a WebSocket cannot
 * reach any address), WebRTC gets no UDP, and no background traffic. Its own sandbox stays on
 * (sandboxed-chromium.ts); `--disable-dev-shm-usage` because containers have a small /dev/shm
 * (64 MB by default), which a renderer can fill and crash on.
 */
export const CHROMIUM_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--disable-gpu',
  '--mute-audio',
  '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  // Fewer processes and less memory: no GPU process, the network service inside the browser
  // process, no crash reporter, a renderer per page at most.
  '--disable-software-rasterizer',
  '--in-process-gpu',
  '--disable-crash-reporter',
  '--renderer-process-limit=4',
  `--enable-features=${[...PLAYWRIGHT_ENABLED_FEATURES, 'NetworkServiceInProcess2'].join(',')}`,
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...DISABLED_FEATURES].join(',')}`,
];

/** Content that runs code or navigates: such an item gets a fresh document of its own. */
const ACTIVE_CONTENT = /<script\b|\son[a-z]+\s*=|http-equiv\s*=\s*["']?refresh/i;
/**
 * Content that embeds a document by <object>: written into a kept document, its load event comes
 * before the object has shown its fallback for missing data, so it is judged in a fresh document.
 */
const EMBEDDED_OBJECT = /<object\b/i;
const SETTLE_QUIET_MS = 150;
const SETTLE_MAX_MS = 2_000;
const CLOSE_GRACE_MS = 5_000;
/**
 * Items a page checks between two collections of its renderer's garbage. Each item written into a
 * kept document leaves the last one's DOM behind for a garbage collector that is in no hurry: a
 * renderer grew from about 100 MB to 225 MB over 200 topics, and stays near 105 MB when collected
 * every 25 items, at 40-70 ms a collection (2-3 ms an item).
 */
const COLLECT_EVERY = 25;
/**
 * Requests one item's page may make. A page of a Brightspace HTML template (a university's public
 * template library, its image page) names 15 files: 4 stylesheets, 5 scripts, 6 images; its
 * stylesheets add a few fonts and background pictures, about 25 in all, and an image-rich page a
 * few dozen more. 300 leaves room for ten such pages; one course page's script made the engine
 * send 2 000 requests in 5 s. Past the cap the rest are refused at once and the item's result says
 * so (limit.page-requests).
 */
export const MAX_PAGE_REQUESTS = 300;

interface Slot {
  context: BrowserContext;
  page: Page;
  /** The origin of the document the page keeps between items, with axe loaded; null for none. */
  warmOrigin: string | null;
  /** The item the page is navigating to: its address and HTML, served from memory. */
  pending: { url: string; html: string } | null;
  inflight: number;
  lastRequestAt: number;
  /** The page's DevTools session, by which its renderer is asked to collect its garbage. */
  devtools: CDPSession;
  /** The isolated world of the page's document in which the engines and probes run. */
  world: PageWorld;
  /** Items checked since the last collection. */
  sinceCollected: number;
  /** Embedded documents of the current item answered by a stand-in (page-resources.ts). */
  standIns: Set<string>;
  /** The addresses the current item's HTML and the stylesheets it loaded name (addressesNamedIn). */
  named: Set<string>;
  /** What the page's document loaded since it was fresh, by method and address (resource-digests.ts). */
  loaded: Map<string, LoadedResource>;
  /** The addresses asked for by the current item. */
  askedNow: Set<string>;
  /** The addresses each stylesheet the document loaded imports, read from its text. */
  imports: Map<string, string[]>;
  /** Requests the current item's page made (its own document aside), and those refused past MAX_PAGE_REQUESTS. */
  requests: number;
  refusedRequests: number;
}

interface Job {
  item: A11yItem;
  resolve: (outcome: AxeOutcome & PageCheckOutcome) => void;
  reject: (error: Error) => void;
}

const closedError = () => new AppError('internal', msg('reason.a11y.closed'));

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A fragment (a description, instructions) inside the smallest page that holds it. */
export function fragmentPage(item: A11yItem, language: Language | undefined): string {
  return `<!doctype html><html lang="${bcp47Of(language ?? 'en')}"><head><meta charset="utf-8"><title>${escapeText(item.title ?? '')}</title></head><body>${item.html}</body></html>`;
}

export class BrowserRunner implements AccessibilityRunner {
  readonly mode = 'browser' as const;
  readonly #options: BrowserRunnerOptions;
  readonly #axeScript: string;
  readonly #ibm: boolean;
  readonly #rules: { whole: string[]; fragment: string[] };
  #browser: Promise<Browser> | null = null;
  #pid: number | undefined;
  /** The browser's process id once it has started (tests, figures). */
  get pid(): number | undefined {
    return this.#pid;
  }
  #schedulingNice: number | undefined;
  /** The nice value of the browser's scheduling group once lowered; undefined where there is none (tests, figures). */
  get schedulingNice(): number | undefined {
    return this.#schedulingNice;
  }
  #idle: Slot[] = [];
  #slots = new Set<Slot>();
  /** Items waiting for a page; close() empties it. */
  readonly #pages: LimitFunction;
  #closed = false;
  /** Items written into a kept document, items given a fresh one, and garbage collections (figures, tests). */
  readonly stats = { reused: 0, fresh: 0, collected: 0 };

  constructor(options: BrowserRunnerOptions) {
    this.#options = options;
    this.#pages = pLimit({ concurrency: options.pages ?? 2, rejectOnClear: true });
    const locale = axeLocaleOf(options.language);
    // Both engines are read from their packages once and injected with each fresh document: never
    // fetched at run time.
    const ibm = options.ibm ?? true;
    this.#ibm = ibm !== false;
    this.#axeScript = `${AXE_SOURCE};${locale === undefined ? '' : `axe.configure({ locale: ${JSON.stringify(locale)} });`}${ibm === false ? '' : `;${ibm === true ? ibmSource() : ibm}`}`;
    this.#rules = {
      whole: axeRulesFor({ mode: 'browser', whole: true, enhancedContrast: options.enhancedContrast }),
      fragment: axeRulesFor({ mode: 'browser', whole: false, enhancedContrast: options.enhancedContrast }),
    };
  }

  /** Whether the browser was started (a run whose every page verdict was reused never starts it). */
  get started(): boolean {
    return this.#browser !== null;
  }

  /** The Chromium version, once the browser has started. */
  async version(): Promise<string> {
    return (await this.#launch()).version();
  }

  warmUp(): void {
    this.#launch().catch(() => undefined);
  }

  run(item: A11yItem): Promise<AxeOutcome & PageCheckOutcome> {
    if (this.#closed) return Promise.reject(closedError());
    return new Promise((resolve, reject) => {
      // #process never rejects: a rejection is the queue's own, for an item cleared by close().
      this.#pages(() => this.#process({ item, resolve, reject })).catch(() => reject(closedError()));
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#pages.clearQueue();
    const launching = this.#browser;
    if (launching === null) return;
    let browser: Browser;
    try {
      browser = await launching;
    } catch {
      return;
    }
    // A browser that does not close in time (a renderer stuck in a script) is killed with its
    // whole process group: no Chromium process outlives the run.
    const closed = browser.close().then(() => true, () => false);
    if (!(await Promise.race([closed, sleep(CLOSE_GRACE_MS, { ref: false }).then(() => false)]))) this.#kill();
  }

  #kill(): void {
    if (this.#pid === undefined) return;
    try {
      process.kill(-this.#pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  #launch(): Promise<Browser> {
    if (this.#browser !== null) return this.#browser;
    // A switch Chromium ignores, unique to this browser, by which its process is found, to kill its
    // process group if it will not close (Playwright does not tell a launched browser's pid).
    const marker = `--ctpo-browser=${randomUUID()}`;
    const niceness = this.#options.niceness === undefined ? BROWSER_NICENESS : this.#options.niceness;
    // The browser is put behind this process as soon as it has a process of its own, not once it
    // answers: starting its zygotes and GPU process is heavy, and in a group of its own at the
    // default priority it would take half of the machine from the API server meanwhile.
    let lowering: Promise<void> | undefined;
    const lower = (pid: number): Promise<void> => {
      lowering ??= niceness === null ? Promise.resolve() : lowerBrowserPriority(pid, niceness).then((nice) => void (this.#schedulingNice = nice));
      return lowering;
    };
    const watch = niceness === null ? undefined : watchForChild(marker, (pid) => void lower(pid));
    this.#browser = chromium
      .launch({
        ...sandboxedLaunchOptions(this.#options.executablePath),
        headless: true,
        args: [...CHROMIUM_ARGS, marker],
        // The run stops the browser itself (close, or the abort of the run); Playwright's own signal
        // handlers would end the whole process. Its exit handler still kills the browser if the
        // process ends first.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: 60_000,
      })
      .then(async (browser) => {
        watch?.stop();
        this.#pid = childWithArgument(marker);
        if (this.#pid !== undefined) await lower(this.#pid);
        return browser;
      })
      .catch((error: unknown) => {
        watch?.stop();
        throw new AppError('internal', msg('reason.a11y.browser-failed', { problem: error instanceof Error ? error.message.split('\n')[0]! : String(error) }));
      });
    return this.#browser;
  }

  /** Checks an item on a page; the page is held until its garbage is collected, after the answer. */
  async #process(job: Job): Promise<void> {
    if (this.#closed) return job.reject(closedError());
    const timeoutMs = this.#options.timeoutMs ?? 30_000;
    let slot: Slot | undefined;
    let timer: NodeJS.Timeout | undefined;
    let onCrash: (() => void) | undefined;
    try {
      slot = this.#idle.pop() ?? (await this.#openSlot());
      const current = slot;
      const failure = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new AppError('internal', msg('reason.a11y.timeout', { seconds: Math.round(timeoutMs / 1000) }))), timeoutMs);
        onCrash = () => reject(new AppError('internal', msg('reason.a11y.crashed')));
        current.page.once('crash', onCrash);
      });
      // The page checks read the rendered item after axe, within the item's time limit.
      const checking = this.#check(current, job.item)
        .then((outcome) => withPageFacts(outcome, current.page, current.devtools, current.world))
        .then((outcome) => (outcome.page === null || outcome.page === undefined || current.refusedRequests === 0 ? outcome : { ...outcome, page: { ...outcome.page, requestCap: { max: MAX_PAGE_REQUESTS, refused: current.refusedRequests } } }));
      checking.catch(() => undefined);
      job.resolve(await Promise.race([checking, failure]));
      // The page's garbage is collected before it takes the next item (the item is answered first).
      if (++slot.sinceCollected >= COLLECT_EVERY) await Promise.race([this.#collect(slot), failure]);
      slot.page.off('crash', onCrash!);
      this.#idle.push(slot);
    } catch (error) {
      // A page that hung, crashed or failed is not used again.
      if (slot !== undefined) this.#dispose(slot);
      job.reject(error instanceof AppError ? error : new AppError('internal', msg('reason.a11y.error', { problem: error instanceof Error ? error.message.split('\n')[0]! : String(error) })));
    } finally {
      clearTimeout(timer);
    }
  }

  async #collect(slot: Slot): Promise<void> {
    slot.sinceCollected = 0;
    await slot.devtools.send('HeapProfiler.collectGarbage');
    this.stats.collected++;
  }

  #dispose(slot: Slot): void {
    this.#slots.delete(slot);
    this.#idle = this.#idle.filter((entry) => entry !== slot);
    slot.context.close().catch(() => undefined);
  }

  async #openSlot(): Promise<Slot> {
    const browser = await this.#launch();
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: bcp47Of(this.#options.language ?? 'en'),
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    const page = await context.newPage();
    const devtools = await context.newCDPSession(page);
    const world = new PageWorld(devtools, this.#axeScript);
    const slot: Slot = {
      context, page, warmOrigin: null, pending: null, inflight: 0, lastRequestAt: 0, devtools, world, sinceCollected: 0, standIns: new Set(),
      loaded: new Map(), askedNow: new Set(), imports: new Map(), requests: 0, refusedRequests: 0, named: new Set(),
    };
    this.#slots.add(slot);
    // Pop-ups are not part of the page.
    context.on('page', (other) => void (other !== page && other.close().catch(() => undefined)));
    await context.route('**/*', (route) => this.#answer(slot, route));
    return slot;
  }

  async #answer(slot: Slot, route: Route): Promise<void> {
    const request = route.request();
    slot.inflight++;
    slot.lastRequestAt = Date.now();
    try {
      if (request.isNavigationRequest() && request.frame() === slot.page.mainFrame()) {
        // The page itself, from memory. Any other navigation (a refresh, a script's location.replace)
        // is answered "204 No Content", after which a browser stays on the page it has (HTML's
        // navigation rules): the page is checked as it is. Refused, the navigation would show the
        // browser's error page instead, and the checks would judge that.
        const pending = slot.pending;
        if (pending !== null && request.url() === pending.url) {
          await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: pending.html });
        } else {
          await route.fulfill({ status: 204, body: '' });
        }
        return;
      }
      if (++slot.requests > MAX_PAGE_REQUESTS) {
        slot.refusedRequests++;
        await route.abort('blockedbyclient');
        return;
      }
      const named = slot.named.has(request.url());
      const answer = await this.#options.resources.answer({
        url: request.url(),
        method: request.method(),
        resourceType: request.resourceType(),
        headers: request.headers(),
        ...(named ? { named } : {}),
      });
      if (answer.ok && answer.standIn === true) slot.standIns.add(request.url());
      // What a stylesheet the page named names in turn (its imports, fonts, pictures) is named too.
      if (named && answer.ok && request.resourceType() === 'stylesheet') for (const address of addressesNamedIn(answer.body.toString('utf8'), request.url())) slot.named.add(address);
      const loaded = { url: request.url(), method: request.method(), resourceType: request.resourceType(), ...(named ? { named } : {}), digest: answerDigest(answer) };
      slot.loaded.set(`${loaded.method} ${loaded.url}`, loaded);
      slot.askedNow.add(loaded.url);
      if (answer.ok && loaded.resourceType === 'stylesheet') slot.imports.set(loaded.url, stylesheetImports(answer.body.toString('utf8'), loaded.url));
      if (answer.ok) await route.fulfill({ status: answer.status, headers: answer.headers, body: answer.body });
      else await route.abort(answer.error === 'blocked' ? 'blockedbyclient' : answer.error);
    } catch {
      // The page went away while its request was answered.
    } finally {
      slot.inflight--;
      slot.lastRequestAt = Date.now();
    }
  }

  async #check(slot: Slot, item: A11yItem): Promise<AxeOutcome & { resources: LoadedResource[] }> {
    const html = item.whole ? item.html : fragmentPage(item, this.#options.language);
    const url = item.url.href.split('#')[0]!;
    const active = ACTIVE_CONTENT.test(html);
    const { page } = slot;
    const reuse = !active && !EMBEDDED_OBJECT.test(html) && slot.warmOrigin === item.url.origin;
    slot.standIns.clear();
    slot.named = new Set(addressesNamedIn(html, url));
    slot.askedNow.clear();
    slot.requests = 0;
    slot.refusedRequests = 0;
    if (reuse) {
      this.stats.reused++;
    } else {
      this.stats.fresh++;
      // A kept document serves what an earlier item loaded (an image, a stylesheet) without asking
      // again, so what an item loaded is everything its document loaded since it was fresh.
      slot.loaded.clear();
      slot.imports.clear();
      slot.warmOrigin = null;
      slot.pending = { url, html };
      slot.world.reset();
      try {
        // Committed, then loaded: a navigation the page starts while it loads (answered 204 in
        // #answer) would leave a goto that waits for its load waiting for ever.
        await page.goto(url, { waitUntil: 'commit', timeout: 0 });
        await page.waitForLoadState('load', { timeout: 0 });
      } finally {
        slot.pending = null;
      }
      if (active) await this.#settle(slot);
      // The engines are loaded into the new document's isolated world here, before the item's check.
      await slot.world.contextId();
    }
    const runOptions = axeRunOptions(item.whole ? this.#rules.whole : this.#rules.fragment) as Record<string, unknown>;
    // One round trip: write the item into the kept document (when reused), wait for its load, run
    // axe, and send back only what the report uses: a few elements per rule, and the reasons.
    const results = await slot.world.evaluate(
      async ({ write, options, examples }: { write: { address: string; content: string } | null; options: Record<string, unknown>; examples: number }) => {
        if (write !== null) {
          await new Promise<void>((resolve) => {
            history.replaceState(null, '', write.address);
            document.open();
            document.write(write.content);
            document.close();
            if (document.readyState === 'complete') resolve();
            else window.addEventListener('load', () => resolve(), { once: true });
          });
        }
        type Check = { message?: string };
        type Node = { html: string; target: unknown; any: Check[]; all: Check[]; none: Check[] };
        type Result = { id: string; impact?: string | null; help: string; helpUrl: string; nodes: Node[]; error?: unknown };
        const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: Result[]; incomplete: Result[] }> } }).axe;
        const reason = (checks: Check[]) => checks.filter((check) => typeof check.message === 'string').map((check) => ({ message: check.message }));
        const slim = (result: Result) => ({
          id: result.id,
          impact: result.impact ?? null,
          help: result.help,
          helpUrl: result.helpUrl,
          ...(result.error === undefined ? {} : { error: true }),
          count: result.nodes.length,
          nodes: result.nodes.slice(0, examples).map((node) => ({ html: node.html, target: node.target, any: reason(node.any), all: reason(node.all), none: reason(node.none) })),
        });
        // Each element either engine names gets a key, so that both engines' verdicts on one element meet.
        const keys = new Map<Element, number>();
        (window as unknown as { __ctpoKeys: Map<Element, number> }).__ctpoKeys = keys;
        const keyOf = (target: unknown): number => {
          const element = Array.isArray(target) && target.length === 1 && typeof target[0] === 'string' ? document.querySelector(target[0]) : null;
          if (element === null) return -1;
          let key = keys.get(element);
          if (key === undefined) keys.set(element, (key = keys.size));
          return key;
        };
        // What embeds a document, by the address it loaded, for verdicts about a stand-in.
        const embeds = [...document.querySelectorAll('object[data], iframe[src], frame[src], embed[src]')].map((element) => {
          let key = keys.get(element);
          if (key === undefined) keys.set(element, (key = keys.size));
          return { url: (element as HTMLObjectElement).data || (element as HTMLIFrameElement).src, key };
        });
        try {
          const found = await axe.run(document, options);
          return { embeds, violations: found.violations.map((result) => ({ ...slim(result), keys: result.nodes.map((node) => keyOf(node.target)) })), incomplete: found.incomplete.map(slim) };
        } catch (error) {
          // The other engine's verdicts still stand.
          return { embeds, violations: [], incomplete: [], failed: error instanceof Error ? error.message : String(error) };
        }
      },
      { write: reuse ? { address: url, content: html } : null, options: runOptions, examples: AXE_EXAMPLES },
    );
    const ibm: IbmPageResult | undefined = this.#ibm ? await slot.world.evaluate(runIbmInPage, ibmRunArguments(item.whole)) : undefined;
    // A document whose own scripts ran is not reused: the next item gets a fresh one.
    slot.warmOrigin = active ? null : item.url.origin;
    const engineErrors = [...('failed' in results ? ['axe-core'] : []), ...(ibm !== undefined && 'error' in ibm ? [IBM_ENGINE] : [])];
    // With every engine failed, nothing was checked: the item is not scanned, with the first reason.
    if (engineErrors.length === (this.#ibm ? 2 : 1)) {
      const problem = 'failed' in results && results.failed !== undefined ? results.failed : ibm !== undefined && 'error' in ibm ? ibm.error : '';
      throw new AppError('internal', msg('reason.a11y.error', { problem }));
    }
    const outcome: AxeOutcome = {
      ...summarizeAxeResults(results as Parameters<typeof summarizeAxeResults>[0]),
      ...(ibm !== undefined && 'results' in ibm ? { ibm: summarizeIbmResults(ibm.results) } : {}),
      ...(engineErrors.length > 0 ? { engineErrors } : {}),
    };
    const standIns = new Set(results.embeds.filter((embed) => slot.standIns.has(embed.url.split('#')[0]!) || slot.standIns.has(embed.url)).map((embed) => embed.key));
    // What the document uses, read in the checks' own world: a page's scripts cannot hide it.
    const used = await slot.world.evaluate(() => {
      const sheets: string[] = [];
      /** Stylesheets of another origin, whose rules (and so imports) the page may not read. */
      const opaque: string[] = [];
      const visit = (sheet: CSSStyleSheet) => {
        if (sheet.href !== null) sheets.push(sheet.href);
        try {
          for (const rule of sheet.cssRules) if (rule instanceof CSSImportRule && rule.styleSheet !== null) visit(rule.styleSheet);
        } catch {
          opaque.push(sheet.href ?? '');
        }
      };
      for (const sheet of document.styleSheets) visit(sheet);
      const images = [...document.images].map((image) => image.currentSrc || image.src);
      return { images, sheets, opaque };
    }, undefined);
    // An unreadable stylesheet's imports are those its text names, as it was answered to the page.
    const sheets = new Set(used.sheets);
    let opaqueSheets = false;
    const pending = [...used.opaque];
    for (let sheet = pending.pop(); sheet !== undefined; sheet = pending.pop()) {
      const imports = slot.imports.get(sheet);
      if (imports === undefined) opaqueSheets = true;
      for (const url of imports ?? []) {
        if (sheets.has(url)) continue;
        sheets.add(url);
        pending.push(url);
      }
    }
    const resources = resourcesOfItem([...slot.loaded.values()], slot.askedNow, { images: used.images, sheets: [...sheets], opaqueSheets, embeds: results.embeds.map((embed) => embed.url) });
    return { ...(standIns.size === 0 ? outcome : withoutStandIns(outcome, standIns)), resources };
  }

  /** After a scripted item's load: until its requests have been quiet a moment, at most 2 s. */
  async #settle(slot: Slot): Promise<void> {
    const started = Date.now();
    while (Date.now() - started < SETTLE_MAX_MS) {
      if (slot.inflight === 0 && Date.now() - slot.lastRequestAt >= SETTLE_QUIET_MS) return;
      await sleep(50, { ref: false });
    }
  }
}

/**
 * Rules whose verdict on an element depends on what it embeds having loaded: on an element whose
 * document was answered by a stand-in they would judge the stand-in, not the page, so those verdicts
 * are not counted.
 */
const LOAD_DEPENDENT_RULES = new Set(['object-alt', 'frame-focusable-content', 'object_text_exists', 'iframe_interactive_tabbable']);

/** The outcome less the load-dependent verdicts on elements whose embedded document was a stand-in. */
export function withoutStandIns(outcome: AxeOutcome, standIns: ReadonlySet<number>): AxeOutcome {
  const keep = <T extends { id: string; count: number; keys?: number[]; nodes: unknown[] }>(result: T): T | null => {
    if (!LOAD_DEPENDENT_RULES.has(result.id) || result.keys === undefined) return result;
    const left = result.keys.map((key, index) => ({ key, index })).filter(({ key }) => !standIns.has(key));
    if (left.length === result.keys.length) return result;
    if (left.length === 0) return null;
    return { ...result, count: left.length, keys: left.map(({ key }) => key), nodes: left.filter(({ index }) => index < result.nodes.length).map(({ index }) => result.nodes[index]) };
  };
  return {
    ...outcome,
    violations: outcome.violations.map(keep).filter((result) => result !== null),
    ...(outcome.ibm === undefined ? {} : { ibm: outcome.ibm.map(keep).filter((result) => result !== null) }),
  };
}

/**
 * Puts the browser behind the process that runs it. Playwright starts Chromium in a session of its
 * own, and Linux's autogroup scheduler first shares the CPU between sessions, then between the
 * processes of each by their nice values: Chromium's session would take half of the CPU against the
 * engine's link checks and the API server whatever their priorities (and as root, Chromium sets its
 * own threads' nice values anyway). The nice value of its session's group (/proc/<pid>/autogroup)
 * is set `niceness` steps below this process's instead: it still gets every cycle nobody else
 * wants. The kernel takes such a write from a process without CAP_SYS_ADMIN once per 100 ms across
 * the machine, so a refused write is tried again. Undefined where there are no autogroups (not
 * Linux, or turned off): the browser then runs as it starts. The price: on a machine whose CPU other
 * work at normal priority takes all the time, the browser waits for it (CTPO_BROWSER_NICENESS sets
 * the steps, `off` leaves the browser as it starts).
 */
export async function lowerBrowserPriority(pid: number, niceness: number): Promise<number | undefined> {
  const nice = Math.min(19, getPriority() + niceness);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(`/proc/${pid}/autogroup`, String(nice));
      return nice;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return undefined;
      await sleep(120, { ref: false });
    }
  }
  return undefined;
}

/**
 * Calls `found` once with the pid of this process's child started with `argument`, as soon as it
 * has run its program (it is then in its own session, so lowering its group leaves this process's
 * alone), looking every few milliseconds until stopped. Only where Linux keeps lists of children
 * (see childrenOfThisProcess); elsewhere it does nothing.
 */
function watchForChild(argument: string, found: (pid: number) => void): { stop(): void } {
  if (!hasChildLists()) return { stop: () => undefined };
  const timer = setInterval(() => {
    const pid = childWithArgument(argument);
    if (pid === undefined) return;
    clearInterval(timer);
    found(pid);
  }, 5);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** The child of this process started with `argument` on its command line (Linux's /proc; elsewhere none). */
function childWithArgument(argument: string): number | undefined {
  for (const pid of childrenOfThisProcess()) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(argument)) return Number(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  return undefined;
}

let childLists: boolean | undefined;
function hasChildLists(): boolean {
  childLists ??= existsSync(`/proc/self/task/${process.pid}/children`);
  return childLists;
}

/**
 * This process's children: from the lists Linux keeps for each of its threads (the one that started
 * a child may be a worker's), cheap enough to read every few milliseconds; where there are none,
 * from every process's parent. Empty where there is no /proc.
 */
function childrenOfThisProcess(): string[] {
  const children: string[] = [];
  try {
    if (hasChildLists()) {
      for (const thread of readdirSync('/proc/self/task')) {
        try {
          children.push(...readFileSync(`/proc/self/task/${thread}/children`, 'utf8').split(' ').filter((entry) => entry !== ''));
        } catch {
          // the thread ended meanwhile
        }
      }
      return children;
    }
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]) === process.pid) children.push(entry);
      } catch {
        // the process ended while the list was read
      }
    }
  } catch {
    // no /proc
  }
  return children;
}
