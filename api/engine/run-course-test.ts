// The one entry point every runner uses (local worker pool, Fargate task, command line): signs in,
// reads the selected modules, checks every topic and link, and returns the report model. Runners
// then write it with renderHtmlReport and renderJsonReport.
import { BrightspaceSession, sitePolicy, siteOriginOf } from '../brightspace/session.ts';
import { classifyTopic, selectModules, type SelectedModule } from '../brightspace/toc.ts';
import { axeFindings, checkAccessibility } from '../checks/accessibility.ts';
import { AxeRunner } from '../checks/axe-runner.ts';
import { finding, type FindingPlace } from '../checks/catalogue.ts';
import { checkContent } from '../checks/content.ts';
import { parseTopic, resolveAddress, type LinkOccurrence } from '../checks/html.ts';
import { DEFAULT_LINK_LIMITS, LinkChecker } from '../checks/link-checker.ts';
import { orgUnitOf, probeFindings, staticLinkFindings } from '../checks/links.ts';
import { checkStructure } from '../checks/structure.ts';
import { GuardedHttpClient } from '../net/guarded-http.ts';
import { buildReport } from '../report/build-report.ts';
import type { TocTopic } from '../http/contract.ts';
import type { CourseTestInput, CourseTestPhase, CourseTestProgress, Finding, NotScanned, Report } from './types.ts';
import { assertClientLabel, assertCredentials, assertModules, assertOrgUnitId } from './validate-input.ts';

const PROGRESS_INTERVAL_MS = 250;
// Topic HTML waiting for the accessibility checker; beyond this, reading more topics waits.
const AXE_BACKLOG_BYTES = 16 * 1024 * 1024;

/**
 * Progress for the runner, at most every 250 ms within a phase (a job store need not take a write
 * per link), but always at the start and end of each phase.
 */
function progressReporter(onProgress: ((p: CourseTestProgress) => void) | undefined) {
  let last: CourseTestProgress | null = null;
  let lastAt = 0;
  return (phase: CourseTestPhase, done: number, total: number) => {
    if (!onProgress) return;
    const now = Date.now();
    if (last !== null && phase === last.phase && done === last.done && total === last.total) return;
    if (phase === last?.phase && done < total && now - lastAt < PROGRESS_INTERVAL_MS) return;
    last = { phase, done, total };
    lastAt = now;
    onProgress({ ...last });
  };
}

async function forEachLimited<T>(items: T[], limit: number, signal: AbortSignal | undefined, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      await work(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

interface TopicJob {
  entry: SelectedModule;
  topic: TocTopic;
}

export async function runCourseTest(input: CourseTestInput, onProgress?: (p: CourseTestProgress) => void): Promise<Report> {
  assertCredentials(input.username, input.password);
  assertOrgUnitId(input.orgUnitId);
  assertModules(input.modules);
  assertClientLabel(input.client);
  const allowPrivateTargets = input.allowPrivateTargets === true;
  const origin = siteOriginOf(input.siteUrl, allowPrivateTargets);
  const options = input.options ?? {};
  const orgUnitId = input.orgUnitId;
  const signal = input.signal;
  const startedAt = new Date();
  const now = options.now ?? startedAt;
  const progress = progressReporter(onProgress);
  const topicConcurrency = options.topicConcurrency ?? 8;

  const siteHttp = new GuardedHttpClient({
    policy: sitePolicy(allowPrivateTargets),
    resolve: options.resolve,
    timeoutMs: options.siteTimeoutMs ?? 30_000,
    connectionsPerHost: Math.max(8, topicConcurrency),
  });
  const linkHttp = new GuardedHttpClient({
    policy: { allowPrivateTargets, allowHttp: true },
    resolve: options.resolve,
    timeoutMs: options.linkTimeoutMs ?? 15_000,
    connectionsPerHost: options.linkLimits?.perHost ?? DEFAULT_LINK_LIMITS.perHost,
  });
  const axe = new AxeRunner({ timeoutMs: options.axeTimeoutMs });
  axe.warmUp();
  let session: BrightspaceSession | undefined;

  try {
    progress('sign-in', 0, 1);
    session = await BrightspaceSession.open({ origin, username: input.username, password: input.password, http: siteHttp, signal });
    const signedIn = session;
    progress('sign-in', 1, 1);

    progress('contents', 0, 1);
    const [toc, courseName] = await Promise.all([signedIn.getToc(orgUnitId), signedIn.getCourseName(orgUnitId)]);
    const selected = selectModules(toc, input.modules);
    progress('contents', 1, 1);

    const findings: Finding[] = checkStructure(selected, now);
    const notScanned: NotScanned[] = [];
    let scanned = 0;
    let links = 0;
    let inLinkPhase = false;
    const checker = new LinkChecker({
      http: linkHttp,
      limits: options.linkLimits,
      headersFor: (url) => signedIn.headersFor(url),
      siteOrigin: origin,
      signal,
      onProgress: (done, total) => {
        if (inLinkPhase) progress('links', done, total);
      },
    });
    const linkWork: Promise<void>[] = [];
    let linkFailure: unknown;

    const addLinks = (occurrences: LinkOccurrence[], place: FindingPlace) => {
      for (const link of occurrences) {
        links++;
        findings.push(...staticLinkFindings(link, place, origin, orgUnitId));
        const url = link.url;
        if (url === null) continue;
        linkWork.push(
          checker.check(url).then(
            (probe) => void findings.push(...probeFindings({ ...link, url }, probe, place)),
            (error: unknown) => void (linkFailure ??= error),
          ),
        );
      }
    };

    const jobs: TopicJob[] = selected.flatMap((entry) => entry.topics.map((topic) => ({ entry, topic })));
    let topicsDone = 0;
    const topicDone = () => progress('topics', ++topicsDone, jobs.length);
    progress('topics', 0, jobs.length);

    let backlogBytes = 0;
    const backlogWaiters: (() => void)[] = [];
    const axeWork: Promise<void>[] = [];

    await forEachLimited(jobs, topicConcurrency, signal, async ({ entry, topic }) => {
      const place: FindingPlace = { moduleId: entry.module.ModuleId, moduleTitle: entry.module.Title, topicId: topic.TopicId, topicTitle: topic.Title };
      const kind = classifyTopic(topic);

      if (kind.kind === 'unreadable') {
        notScanned.push({ topicId: topic.TopicId, title: topic.Title, reason: kind.reason });
        // A quicklink to a quiz or assignment of another course is still a link into it.
        const target = kind.url === null ? undefined : resolveAddress(kind.url, origin, orgUnitId);
        if (target) {
          const other = orgUnitOf(new URL(target), origin);
          if (other !== null && other !== orgUnitId) {
            findings.push(finding('link.cross-course', place, target,
              `This topic opens an item of another course or org unit (${other}), which students of this course usually cannot open. Point it at this course's own copy.`));
          }
        }
        topicDone();
        return;
      }

      if (kind.kind === 'link') {
        const url = resolveAddress(kind.url, origin, orgUnitId);
        if (url === undefined) {
          notScanned.push({ topicId: topic.TopicId, title: topic.Title, reason: 'This link topic does not point to a web page (e.g. an e-mail address), so it was not checked.' });
        } else {
          scanned++;
          addLinks([{ raw: kind.url, url, element: 'topic', embedded: false }], place);
        }
        topicDone();
        return;
      }

      const pageUrl = new URL(kind.path, origin);
      const file = await signedIn.getTopicHtml(orgUnitId, topic.TopicId);
      if (!file.ok) {
        notScanned.push({ topicId: topic.TopicId, title: topic.Title, reason: file.reason });
        topicDone();
        return;
      }
      const parsed = parseTopic(file.html, pageUrl, orgUnitId);
      findings.push(...checkContent(parsed, place, pageUrl.href));
      findings.push(...checkAccessibility(parsed, place, pageUrl, orgUnitId));
      addLinks(parsed.links, place);

      // The accessibility checker runs in its own thread; reading the next topics does not wait
      // for it unless too much HTML is queued.
      const size = file.html.length;
      while (backlogBytes > 0 && backlogBytes + size > AXE_BACKLOG_BYTES) {
        await new Promise<void>((resolve) => backlogWaiters.push(resolve));
      }
      backlogBytes += size;
      axeWork.push(
        axe.run(file.html).then(
          (violations) => {
            findings.push(...axeFindings(violations, place, pageUrl.href));
            scanned++;
          },
          (error: unknown) => {
            notScanned.push({ topicId: topic.TopicId, title: topic.Title, reason: `${error instanceof Error ? error.message : 'The accessibility checks failed.'} Links and text were checked.` });
          },
        ).finally(() => {
          backlogBytes -= size;
          backlogWaiters.splice(0).forEach((wake) => wake());
          topicDone();
        }),
      );
    });
    await Promise.all(axeWork);
    signal?.throwIfAborted();

    inLinkPhase = true;
    progress('links', checker.done, checker.total);
    await Promise.all(linkWork);
    if (linkFailure !== undefined) throw linkFailure;
    progress('links', checker.done, checker.total);

    progress('report', 0, 1);
    const report = buildReport({
      client: input.client.trim(),
      siteUrl: origin.href,
      orgUnitId,
      courseName,
      selected,
      viewUrl: (topicId) => signedIn.topicViewUrl(orgUnitId, topicId),
      findings,
      notScanned,
      scanned,
      links,
      startedAt,
      finishedAt: new Date(),
    });
    progress('report', 1, 1);
    return report;
  } finally {
    await session?.close();
    await axe.close();
    await siteHttp.close();
    await linkHttp.close();
  }
}
