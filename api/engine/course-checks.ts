// The checks every course item goes through, whatever source it came from: content and our own
// accessibility checks at once, axe-core in the run's accessibility runner (a headless browser, or
// jsdom in a worker thread) while the links are checked, and every link handed to the link checker
// (each distinct address probed once per run). The course's own stylesheets add their addresses to
// the topics that use them; links to the course's own items are decided from the course index;
// fragments are checked in their pages; dates, quicklinks, release conditions and the gradebook are
// judged from what their readers found. Findings, what could not be read and the course items that
// were checked are collected here for the report.
import type { A11yItem, AccessibilityRunner } from '../a11y/a11y-runner.ts';
import type { LoadedResource } from '../a11y/resource-digests.ts';
import type { ItemUrls } from '../brightspace/item-urls.ts';
import { internalTargetOf, type InternalTarget } from '../brightspace/item-urls.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import type { CourseDates } from '../brightspace/toc.ts';
import { checkAccessibility } from '../checks/accessibility.ts';
import { engineFindings } from '../checks/engine-findings.ts';
import { quicklinkFindings } from '../checks/activities.ts';
import { checkContent, sessionTokenFindings } from '../checks/content.ts';
import { checkDocument } from '../checks/documents.ts';
import { FindingCaps } from '../checks/finding-caps.ts';
import type { CheckedDocument, Finding, NotScanned } from '../checks/finding.ts';
import { gradebookFindings } from '../checks/grades.ts';
import { internalLinkFindings } from '../checks/internal-links.ts';
import { pageCheckFindings } from '../checks/page-checks.ts';
import { fragmentFindings, mailtoFindings, openedAddressFindings, probeFindings, staticLinkFindings } from '../checks/links.ts';
import { releaseConditionFindings } from '../checks/release-conditions.ts';
import { dateFindings } from '../checks/structure.ts';
import { isAppError } from '../errors.ts';
import { parseTopic, type LinkOccurrence } from '../extract/html.ts';
import type { CourseStylesheets } from '../extract/stylesheets.ts';
import { msg } from '../i18n/messages.ts';
import type { LinkChecker } from '../net/link-checker.ts';
import type { CourseIndex } from '../sources/course-index.ts';
import type { CheckedItem, CourseItem } from '../sources/course-items.ts';
import type { KeptPage, RunVerdicts } from './run-verdicts.ts';

// HTML waiting for the accessibility checker; beyond this, reading more items waits.
const A11Y_BACKLOG_BYTES = 16 * 1024 * 1024;

export interface CourseChecksOptions {
  origin: URL;
  orgUnitId: number;
  links: LinkChecker;
  a11y: AccessibilityRunner;
  /** Told of every link of every item (the document source reads course files pages link to). */
  onLink?: (link: LinkOccurrence, item: CourseItem) => void;
  /** The course's items, for links to them and what quicklinks, conditions and grades name; without it links are checked over HTTP only. */
  index?: CourseIndex;
  /** The course's own stylesheets; without it only the stylesheet addresses themselves are checked. */
  stylesheets?: CourseStylesheets;
  /** "Now" for the date checks. */
  now?: Date;
  /** The course offering's dates, for the dates of activities. */
  courseDates?: CourseDates;
  /** The course's pages, for the course items the report lists. */
  urls?: ItemUrls;
  /** The verdicts of earlier runs this run may reuse, and what it keeps; none when the run keeps none. */
  verdicts?: RunVerdicts;
  /** Whether what a page loaded last time still answers the same (the run's PageResources). */
  resourcesUnchanged?: (loaded: readonly LoadedResource[]) => Promise<boolean>;
}

interface PendingLink {
  link: LinkOccurrence & { url: string };
  item: CourseItem;
  target: InternalTarget;
}

export class CourseChecks {
  /** Every finding goes through the caps; those past a cap are counted, not kept. */
  readonly #caps = new FindingCaps();
  readonly notScanned: NotScanned[] = [];
  readonly #items = new Map<string, CheckedItem>();
  /** Documents read and checked. */
  readonly documents: CheckedDocument[] = [];
  /** Topics fully checked. */
  scanned = 0;
  /** Link occurrences handed to the link checker. */
  links = 0;
  /** axe rules whose own code failed, with the number of items each failed on. */
  readonly ruleErrors = new Map<string, number>();
  /** Accessibility engines that failed on an item while the other's verdicts stood, with the number of items. */
  readonly engineErrors = new Map<string, number>();
  /** Links with schemes that are not the web's (mailto:, tel:, app links): never fetched. */
  linksNotCheckable = 0;
  readonly #options: CourseChecksOptions;
  readonly #linkWork: Promise<void>[] = [];
  readonly #a11yWork: Promise<void>[] = [];
  #linkFailure: unknown;
  /** Links to activities, decided once every reader has added what it read to the index. */
  #pending: PendingLink[] = [];
  #readingDone = false;
  #backlogBytes = 0;
  #backlogWaiters: (() => void)[] = [];
  #lastTurn: Promise<void> = Promise.resolve();

  /**
   * Items are checked one per turn of the event loop, in the order they arrive. Items read at once
   * often arrive together, and checking them all in one go (each starts a dozen link probes) would
   * keep the answers of earlier probes waiting: a host's next probe starts only once an answer
   * frees its place, so the links of a course would finish later.
   */
  #turn(): Promise<void> {
    const turn = this.#lastTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.#lastTurn = turn;
    return turn;
  }

  constructor(options: CourseChecksOptions) {
    this.#options = options;
  }

  /** The findings kept, and one for each item and check whose cap was reached, saying how many more there were. */
  get findings(): Finding[] {
    return [...this.#caps.kept, ...this.#caps.overflow()];
  }

  /** Course items besides modules and topics that findings of the gradebook and release conditions name, for the report. */
  get items(): CheckedItem[] {
    return [...this.#items.values()];
  }

  /** Findings about the course as a whole (its modules' structure). */
  addFindings(findings: Finding[]): void {
    for (const found of findings) this.#caps.add(found);
  }

  /** Checks an item; resolves once the next may be read. `done` follows when all its checks have run. */
  async check(item: CourseItem, done?: () => void): Promise<void> {
    await this.#turn();
    const { orgUnitId, origin, onLink } = this.#options;
    if (item.unreadable !== undefined) {
      const { reason, title, opens } = item.unreadable;
      this.notScanned.push({ ...item.place, title: title ?? item.place.itemTitle ?? '', reason, ...(item.url === null ? {} : { url: item.url }) });
      if (opens !== undefined) this.#push(openedAddressFindings(opens, item.place, origin, orgUnitId), item);
      done?.();
      return;
    }
    this.#judgeFacts(item);
    if (item.links !== undefined) {
      for (const link of item.links) onLink?.(link, item);
      this.#addLinks(item.links, item);
    }
    if (item.document !== undefined && item.url !== null) this.#checkDocument(item, item.document, item.url);
    if (item.html === undefined) {
      if (item.isTopic) this.scanned++;
      done?.();
      return;
    }
    const { content, baseUrl, whole } = item.html;
    const parsed = parseTopic(content, baseUrl, orgUnitId);
    // A fragment with nothing visible (an empty description) is not a blank page.
    this.#push(checkContent(parsed, item.place, item.url).filter((found) => whole || found.check !== 'content.empty'), item);
    this.#push(sessionTokenFindings(content, item.place, item.url), item);
    this.#push(checkAccessibility(parsed, item.place, baseUrl, orgUnitId), item);
    for (const link of parsed.otherSchemes) {
      this.linksNotCheckable++;
      this.#push(mailtoFindings(link, item.place), item);
    }
    const page = new URL(baseUrl.href);
    page.hash = '';
    this.#push(fragmentFindings(page.href, parsed.ownFragments, parsed.anchorNames, item.place, true), item);
    // Told now, while the item is being read, rather than once its stylesheets are.
    for (const link of parsed.links) onLink?.(link, item);
    this.#track(this.#withStylesheets(parsed.links).then((links) => this.#addLinks(links, item)));

    // The accessibility checker runs in its own thread; reading the next items does not wait for it
    // unless too much HTML is queued.
    const size = content.length;
    while (this.#backlogBytes > 0 && this.#backlogBytes + size > A11Y_BACKLOG_BYTES) {
      await new Promise<void>((resolve) => this.#backlogWaiters.push(resolve));
    }
    this.#backlogBytes += size;
    this.#a11yWork.push(
      this.#accessibility(item, { html: content, url: baseUrl, whole, title: item.place.itemTitle ?? '' }).then(
        (outcome) => {
          this.#push(engineFindings(outcome, item.place, item.url), item);
          for (const rule of outcome.errors) this.ruleErrors.set(rule, (this.ruleErrors.get(rule) ?? 0) + 1);
          for (const engine of outcome.engineErrors ?? []) this.engineErrors.set(engine, (this.engineErrors.get(engine) ?? 0) + 1);
          if (item.isTopic) this.scanned++;
          this.#push(pageCheckFindings(outcome.page, whole, item.place, item.url), item);
        },
        (error: unknown) => {
          const problem = isAppError(error) ? error.text : msg('reason.a11y.failed');
          this.notScanned.push({ ...item.place, title: item.place.itemTitle ?? '', reason: msg('reason.topic.a11y-failed', { problem }), ...(item.url === null ? {} : { url: item.url }) });
        },
      ).finally(() => {
        this.#backlogBytes -= size;
        this.#backlogWaiters.splice(0).forEach((wake) => wake());
        done?.();
      }),
    );
  }

  /**
   * The accessibility runner's outcome of a page: the kept one when the page, what judges it and
   * every resource it loaded are the same as when it was judged; else judged now (and kept).
   */
  async #accessibility(item: CourseItem, page: Required<A11yItem>): Promise<Awaited<ReturnType<AccessibilityRunner['run']>>> {
    const { verdicts, a11y } = this.#options;
    if (verdicts === undefined) return a11y.run(page);
    const key = `page:${item.place.itemType}:${item.place.itemId}:${item.place.topicId}:${item.part ?? ''}:${page.url.href}`;
    const digest = verdicts.pageDigest(page);
    const cached = verdicts.kept(key, digest);
    if (cached !== undefined) {
      const kept = cached.value as KeptPage;
      if (await (this.#options.resourcesUnchanged ?? (async (loaded) => loaded.length === 0))(kept.resources)) {
        verdicts.reuse(key, cached, item.place, item.url);
        return kept.outcome;
      }
    }
    const { resources, ...outcome } = await a11y.run(page);
    // An outcome with an engine or a rule that failed is not kept: the next run tries them again.
    if (outcome.errors.length === 0 && (outcome.engineErrors ?? []).length === 0) verdicts.record(key, digest, { outcome, resources: resources ?? [] });
    return outcome;
  }

  /** Waits for the accessibility checks handed out so far. */
  async accessibilityDone(): Promise<void> {
    await Promise.all(this.#a11yWork);
  }

  /**
   * Waits for every link probe; a failure of the checker itself (not of a link) is thrown. Call it
   * once every source has read the course: links to activities are decided from the index then.
   */
  async linksDone(): Promise<void> {
    this.#readingDone = true;
    for (;;) {
      for (const pending of this.#pending.splice(0)) this.#decide(pending);
      const count = this.#linkWork.length;
      await Promise.all(this.#linkWork);
      if (this.#linkWork.length === count && this.#pending.length === 0) break;
    }
    if (this.#linkFailure !== undefined) throw this.#linkFailure;
  }

  /** What an item's reader found besides its content: its dates, the activity a quicklink opens, its release conditions, the gradebook. */
  #judgeFacts(item: CourseItem): void {
    const { place } = item;
    const { index } = this.#options;
    if (item.dates !== undefined) {
      const now = this.#options.now ?? new Date();
      this.#push(dateFindings(item.dates.dates, place, now, item.dates.course ? this.#options.courseDates : undefined), item);
    }
    if (item.quicklink !== undefined) this.#push(quicklinkFindings(item.quicklink, place), item);
    const activityState = (kind: 'assignment' | 'quiz' | 'discussion-topic', id: number) => {
      const state = index?.activityById([kind], id).state ?? 'unknown';
      return state === 'present' || state === 'hidden' ? 'found' : state;
    };
    if (item.conditions !== undefined) {
      const { conditions, gradeItems } = item.conditions;
      const found = releaseConditionFindings(conditions, place, item.url, (kind, id) => {
        if (kind === 'topic') return index === undefined ? 'unknown' : index.hasTopic(id) ? 'found' : 'missing';
        if (kind === 'grade-item') return gradeItems === null ? 'unknown' : gradeItems.has(id) ? 'found' : 'missing';
        return activityState(kind, id);
      });
      for (const finding of found) if (finding.itemType !== 'topic') this.#list(finding, finding.url);
      this.#push(found, item);
    }
    if (item.gradebook !== undefined) {
      const { gradebook, graded, referencesComplete, courseTitle } = item.gradebook;
      const gradebookUrl = item.url ?? '';
      const found = gradebookFindings(gradebook, graded, activityState, { orgUnitId: this.#options.orgUnitId, courseTitle, gradebookUrl, referencesComplete });
      const home = this.#options.urls?.home() ?? null;
      for (const finding of found) this.#list(finding, finding.itemType === 'course' ? home : finding.itemType === 'grade-item' ? gradebookUrl : finding.url);
      this.#push(found, item);
    }
  }

  /** A course item the report lists, with its page in Brightspace. */
  #list({ moduleId, moduleTitle, topicId, topicTitle, itemType, itemId, itemTitle }: ItemPlace, viewUrl: string | null): void {
    const place = { moduleId, moduleTitle, topicId, topicTitle, itemType, itemId, itemTitle };
    this.#items.set(`${itemType}:${itemId}:${topicId}`, { place, viewUrl });
  }

  #checkDocument(item: CourseItem, document: NonNullable<CourseItem['document']>, url: string): void {
    const { facts, linked } = document;
    const { findings, links } = checkDocument(facts, item.place, url, this.#options.orgUnitId);
    this.#push(findings, item);
    this.#addLinks(links, item);
    const pages = facts.type === 'pptx' ? facts.slides : facts.pages;
    this.documents.push({ ...item.place, url, type: facts.type, title: facts.title, pages, linked });
  }

  /**
   * Findings of an item; those found in a document name it, and those of one part of an item (a
   * topic's description) say so in their subject, so their fingerprints stay apart.
   */
  #push(findings: Finding[], item: CourseItem): void {
    const document = item.document === undefined ? null : item.url;
    const { part } = item;
    if (document === null && part === undefined) {
      for (const found of findings) this.#caps.add(found);
      return;
    }
    for (const found of findings) {
      this.#caps.add({
        ...found,
        ...(document === null ? {} : { document }),
        ...(part === undefined ? {} : { subject: `${part}:${found.subject ?? found.url ?? ''}` }),
      });
    }
  }

  #track(work: Promise<void>): void {
    this.#linkWork.push(work.catch((error: unknown) => void (this.#linkFailure ??= error)));
  }

  /** A page's links with the addresses of the course stylesheets it uses, each address once. */
  async #withStylesheets(links: LinkOccurrence[]): Promise<LinkOccurrence[]> {
    const { stylesheets } = this.#options;
    const sheets = stylesheets === undefined ? [] : links.filter((link) => link.stylesheet && link.url !== null);
    if (sheets.length === 0) return links;
    // The findings wait for the stylesheets (an address in both is one finding); the requests need
    // not: the link checker asks once per address, and the answer is there when the findings are made.
    this.#startProbes(links);
    const merged = new Map(links.map((link) => [link.url ?? `invalid:${link.raw}`, link]));
    for (const sheetLinks of await Promise.all(sheets.map((sheet) => stylesheets!.linksOf(sheet.url!)))) {
      for (const link of sheetLinks) {
        const key = link.url ?? `invalid:${link.raw}`;
        const existing = merged.get(key);
        if (existing === undefined) merged.set(key, link);
        else merged.set(key, { ...existing, count: (existing.count ?? 1) + (link.count ?? 1) });
      }
    }
    return [...merged.values()];
  }

  /** Starts the requests for addresses that are checked over HTTP, before their findings are made. */
  #startProbes(links: LinkOccurrence[]): void {
    for (const { url } of links) {
      if (url !== null && this.#internalTarget(url) === null) this.#track(this.#options.links.check(url).then(() => undefined));
    }
  }

  /** What a link points to in the course, or null for an address checked over HTTP. */
  #internalTarget(url: string): InternalTarget | null {
    const { origin, orgUnitId, index } = this.#options;
    return index === undefined ? null : internalTargetOf(new URL(url), origin, orgUnitId);
  }

  #addLinks(occurrences: LinkOccurrence[], item: CourseItem): void {
    const { origin, orgUnitId } = this.#options;
    for (const link of occurrences) {
      this.links++;
      this.#push(staticLinkFindings(link, item.place, origin, orgUnitId), item);
      const url = link.url;
      if (url === null) continue;
      const target = this.#internalTarget(url);
      if (target === null) this.#probe({ ...link, url }, item);
      else if (target.kind === 'activity' && !this.#readingDone) this.#pending.push({ link: { ...link, url }, item, target });
      else this.#decide({ link: { ...link, url }, item, target });
    }
  }

  /** An internal link: decided by the index when it knows the target, else checked over HTTP. */
  #decide({ link, item, target }: PendingLink): void {
    const { state, title, fileUrl } = this.#options.index!.lookup(target);
    if (state === 'unknown') return this.#probe(link, item);
    const linkHidden = item.hiddenFromStudents === true || this.#options.index!.hiddenFromStudents(item.place);
    this.#push(internalLinkFindings(link, target, state, title, item.place, linkHidden), item);
    // Whether a course file exists is for the request to say, even when its topic is hidden.
    if (target.kind === 'file') return this.#probe(link, item);
    // A fragment on a topic's viewer page points into the topic's own file.
    if (state !== 'missing' && fileUrl !== undefined && link.fragments !== undefined) {
      const file = new URL(fileUrl, this.#options.origin).href;
      this.#track(this.#options.links.anchors(file).then((anchors) => {
        if (anchors !== null) this.#push(fragmentFindings(link.url, link.fragments!, anchors, item.place, false), item);
      }));
    }
  }

  #probe(link: LinkOccurrence & { url: string }, item: CourseItem): void {
    const { links } = this.#options;
    this.#track(links.check(link.url).then(async (probe) => {
      this.#push(probeFindings(link, probe, item.place), item);
      if (probe.outcome !== 'ok' || link.fragments === undefined) return;
      const anchors = await links.anchors(link.url);
      if (anchors !== null) this.#push(fragmentFindings(link.url, link.fragments, anchors, item.place, false), item);
    }));
  }
}
