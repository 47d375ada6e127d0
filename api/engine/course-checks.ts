// The checks every course item goes through, whatever source it came from: content and our own
// accessibility checks at once, axe-core in the run's accessibility runner (a headless browser, or
// jsdom in a worker thread) while the links are checked, and every link handed to the link checker
// (each distinct address probed once per run). Findings and what could not be checked are
// collected here for the report.
import type { AccessibilityRunner } from '../checks/a11y-runner.ts';
import { axeFindings, checkAccessibility } from '../checks/accessibility.ts';
import { checkContent } from '../checks/content.ts';
import type { Finding, NotScanned } from '../checks/finding.ts';
import { parseTopic, type LinkOccurrence } from '../checks/html.ts';
import type { LinkChecker } from '../checks/link-checker.ts';
import { probeFindings, staticLinkFindings } from '../checks/links.ts';
import { isAppError } from '../errors.ts';
import { msg } from '../i18n/messages.ts';
import type { CourseItem } from '../sources/course-items.ts';

// HTML waiting for the accessibility checker; beyond this, reading more items waits.
const A11Y_BACKLOG_BYTES = 16 * 1024 * 1024;

export interface CourseChecksOptions {
  origin: URL;
  orgUnitId: number;
  links: LinkChecker;
  a11y: AccessibilityRunner;
}

export class CourseChecks {
  readonly findings: Finding[] = [];
  readonly notScanned: NotScanned[] = [];
  /** Topics fully checked. */
  scanned = 0;
  /** Link occurrences handed to the link checker. */
  links = 0;
  /** axe rules whose own code failed, with the number of items each failed on. */
  readonly ruleErrors = new Map<string, number>();
  readonly #options: CourseChecksOptions;
  readonly #linkWork: Promise<void>[] = [];
  readonly #a11yWork: Promise<void>[] = [];
  #linkFailure: unknown;
  #backlogBytes = 0;
  #backlogWaiters: (() => void)[] = [];

  constructor(options: CourseChecksOptions) {
    this.#options = options;
  }

  addFindings(findings: Finding[]): void {
    this.findings.push(...findings);
  }

  /** Checks an item; resolves once the next may be read. `done` follows when all its checks have run. */
  async check(item: CourseItem, done?: () => void): Promise<void> {
    const { orgUnitId } = this.#options;
    if (item.links !== undefined) this.#addLinks(item.links, item);
    if (item.html === undefined) {
      if (item.place.itemType === 'topic') this.scanned++;
      done?.();
      return;
    }
    const { content, baseUrl } = item.html;
    const parsed = parseTopic(content, baseUrl, orgUnitId);
    this.findings.push(...checkContent(parsed, item.place, item.url));
    this.findings.push(...checkAccessibility(parsed, item.place, baseUrl, orgUnitId));
    this.#addLinks(parsed.links, item);

    // The accessibility checker runs in its own thread; reading the next items does not wait for it
    // unless too much HTML is queued.
    const size = content.length;
    while (this.#backlogBytes > 0 && this.#backlogBytes + size > A11Y_BACKLOG_BYTES) {
      await new Promise<void>((resolve) => this.#backlogWaiters.push(resolve));
    }
    this.#backlogBytes += size;
    this.#a11yWork.push(
      this.#options.a11y.run({ html: content, url: baseUrl, whole: item.html.whole, title: item.place.itemTitle ?? '' }).then(
        (outcome) => {
          this.findings.push(...axeFindings(outcome, item.place, item.url));
          for (const rule of outcome.errors) this.ruleErrors.set(rule, (this.ruleErrors.get(rule) ?? 0) + 1);
          if (item.place.itemType === 'topic') this.scanned++;
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

  /** Waits for the accessibility checks handed out so far. */
  async accessibilityDone(): Promise<void> {
    await Promise.all(this.#a11yWork);
  }

  /** Waits for every link probe; a failure of the checker itself (not of a link) is thrown. */
  async linksDone(): Promise<void> {
    await Promise.all(this.#linkWork);
    if (this.#linkFailure !== undefined) throw this.#linkFailure;
  }

  #addLinks(occurrences: LinkOccurrence[], item: CourseItem): void {
    const { origin, orgUnitId, links } = this.#options;
    for (const link of occurrences) {
      this.links++;
      this.findings.push(...staticLinkFindings(link, item.place, origin, orgUnitId));
      const url = link.url;
      if (url === null) continue;
      this.#linkWork.push(
        links.check(url).then(
          (probe) => void this.findings.push(...probeFindings({ ...link, url }, probe, item.place)),
          (error: unknown) => void (this.#linkFailure ??= error),
        ),
      );
    }
  }
}
