// The one entry point every runner uses (local worker pool, Fargate task, command line): checks the
// input, opens what the run needs and signs in, reads the course through its sources while the
// checks judge each item, then builds the report model. Runners write it with the report writers
// (api/report/).
import { anchorNamesOf } from '../extract/html.ts';
import { pageFactsOf } from '../extract/page-facts.ts';
import { readCourseOutline } from '../brightspace/course-offering.ts';
import { itemUrls } from '../brightspace/item-urls.ts';
import { selectModules, type CourseDates, type SelectedModule } from '../brightspace/toc.ts';
import type { TocResponse } from '../brightspace/types.ts';
import { checkStructure } from '../checks/structure.ts';
import { CourseStylesheets, MAX_STYLESHEET_BYTES } from '../extract/stylesheets.ts';
import type { LoadedResource } from '../a11y/resource-digests.ts';
import { siteOriginOf } from '../brightspace/session.ts';
import { LinkChecker, type LinkProbe } from '../net/link-checker.ts';
import { buildReport } from '../report/build-report.ts';
import type { Report } from '../report/model.ts';
import { CourseIndex } from '../sources/course-index.ts';
import type { CheckedItem, RunNote, SourceContext } from '../sources/course-items.ts';
import { CourseDocuments } from '../sources/documents.ts';
import { CourseFrames } from '../sources/frames.ts';
import { readWholeCourse } from '../sources/whole-course.ts';
import { CourseChecks } from './course-checks.ts';
import { progressReporter, type ProgressReporter, type RunProgress } from './progress.ts';
import { DEFAULT_TOPIC_CONCURRENCY, openRunResources, type RunResources } from './run-resources.ts';
import { assertRunInput } from './run-input.ts';
import type { CourseTestInput } from './types.ts';
import { RunVerdicts, runJudges } from './run-verdicts.ts';
import { emptyCourseVerdicts } from './verdict-cache.ts';

export async function runCourseTest(input: CourseTestInput, onProgress?: (progress: RunProgress) => void): Promise<Report> {
  assertRunInput(input);
  const startedAt = new Date();
  const now = input.options?.now ?? startedAt;
  const progress = progressReporter(onProgress);
  const { orgUnitId, signal } = input;
  const scope = { site: siteOriginOf(input.siteUrl, input.allowPrivateTargets).origin, orgUnitId };
  const previous = input.cache === undefined || input.full === true ? emptyCourseVerdicts() : await input.cache.load(scope);
  await using run = await openRunResources(input, progress, previous.items.size === 0);
  const verdicts = input.cache === undefined ? undefined : new RunVerdicts({ previous, now: startedAt, linkMaxAgeMs: input.options?.linkMaxAgeMs, siteOrigin: run.origin, ...runJudges(input, run.a11y.runner.mode, run.a11y.renderer, run.documents.limits) });

  progress('contents', 0, 1);
  const outline = await readCourseOutline(run.session, orgUnitId, now);
  if (outline.offering?.name != null) input.onCourseName?.(outline.offering.name);
  const courseDates: CourseDates = { start: outline.offering?.start ?? null, end: outline.offering?.end ?? null };
  const selected = selectModules(outline.toc, input.modules, input.excludeModules);
  const { checks, finishLinks, documents, frames, notes, context } = startChecks(run, input, outline.toc, selected, { now, courseDates, progress, verdicts });
  const concurrency = input.options?.topicConcurrency ?? DEFAULT_TOPIC_CONCURRENCY;
  const course = await readWholeCourse(context, { outline, selected, scopes: input.scopes ?? [], concurrency, documents });
  checks.addFindings(checkStructure(course.selected, now, courseDates));
  // The course's own pages shown in frames are checked by the same runner as the pages.
  await frames.readAll(context);

  // Every page is checked: the accessibility runner (the browser, or jsdom's worker) is closed
  // before the document reader starts, so the two never hold memory at once. How it checked is
  // taken first, while the browser that says its version is still there.
  await checks.accessibilityDone();
  const accessibility = await run.a11y.describe(checks.ruleErrors, checks.engineErrors, verdicts?.reusedBrowserVersion);
  verdicts?.setBrowserVersion(accessibility.browserVersion);
  await run.a11y.runner.close();
  await documents.readAll(context);
  await run.documents.close();
  signal?.throwIfAborted();
  await finishLinks();

  progress('report', 0, 1);
  const report = finishedReport(run, input, { outline, course, checks, notes, startedAt, accessibility, verdicts });
  // What this run checked is kept for the next; a store that fails costs the next run time, not this run.
  if (verdicts !== undefined) await input.cache!.save(scope, verdicts.checked).catch(() => undefined);
  progress('report', 1, 1);
  return report;
}

/** The report model of a finished run, from what its parts found. */
function finishedReport(run: RunResources, input: CourseTestInput, found: {
  outline: Awaited<ReturnType<typeof readCourseOutline>>;
  course: Awaited<ReturnType<typeof readWholeCourse>>;
  checks: CourseChecks;
  notes: ReturnType<typeof startChecks>['notes'];
  startedAt: Date;
  accessibility: Awaited<ReturnType<RunResources['a11y']['describe']>>;
  verdicts: RunVerdicts | undefined;
}): Report {
  const { outline, course, checks, notes, startedAt, accessibility, verdicts } = found;
  const { orgUnitId } = input;
  return buildReport({
    client: input.client.trim(),
    siteUrl: run.origin.href,
    orgUnitId,
    ...(outline.offering?.name == null ? {} : { courseName: outline.offering.name }),
    language: input.language,
    scopes: input.scopes,
    selected: course.selected,
    courseItems: onePerPlace([...course.items, ...checks.items]),
    runNotes: [...notes.values()].map((note) => note.message),
    viewUrl: (topicId) => run.session.topicViewUrl(orgUnitId, topicId),
    findings: checks.findings,
    notScanned: checks.notScanned,
    documents: checks.documents,
    scanned: checks.scanned,
    links: checks.links,
    linksNotCheckable: checks.linksNotCheckable,
    startedAt,
    finishedAt: new Date(),
    accessibility,
    ...(verdicts === undefined ? {} : { reuse: verdicts.summary() }),
  });
}

/** Course items named by both their reader and a finding, once each. */
function onePerPlace(items: CheckedItem[]): CheckedItem[] {
  return [...new Map(items.map((item) => [`${item.place.itemType}:${item.place.itemId}:${item.place.topicId}`, item])).values()];
}

/** The run's checks, its documents, and the context its sources hand items through. */
function startChecks(run: RunResources, input: CourseTestInput, toc: TocResponse, selected: SelectedModule[], at: { now: Date; courseDates: CourseDates; progress: ProgressReporter; verdicts?: RunVerdicts }) {
  const { origin, session } = run;
  const { orgUnitId, signal } = input;
  const { now, progress } = at;
  let inLinkPhase = false;
  const linkChecker = new LinkChecker({
    http: run.linkHttp,
    limits: input.options?.linkLimits,
    headersFor: (url) => session.headersFor(url),
    siteOrigin: origin,
    signal,
    anchorsOf: anchorNamesOf,
    pageFactsOf,
    ...(at.verdicts === undefined ? {} : { earlierAnswer: (url: string) => at.verdicts!.keptLink(url), onAnswer: (url: string, probe: LinkProbe) => at.verdicts!.recordLink(url, probe) }),
    onProgress: (done, total) => {
      if (inLinkPhase) progress('links', done, total);
    },
  });
  const documents = new CourseDocuments(at.verdicts?.documentReader(run.documents) ?? run.documents, origin, selected);
  const frames = new CourseFrames(origin);
  const index = new CourseIndex(toc);
  const stylesheets = new CourseStylesheets({ read: (url) => session.readSiteText(url, MAX_STYLESHEET_BYTES), isOwn: (url) => url.origin === origin.origin, orgUnitId });
  const checks = new CourseChecks({
    origin,
    orgUnitId,
    links: linkChecker,
    a11y: run.a11y.runner,
    index,
    stylesheets,
    now,
    courseDates: at.courseDates,
    urls: itemUrls(origin, orgUnitId),
    ...(at.verdicts === undefined ? {} : { verdicts: at.verdicts, resourcesUnchanged: (loaded: readonly LoadedResource[]) => run.a11y.resourcesUnchanged(loaded) }),
    onLink: (link, item) => {
      documents.noteLink(link, item);
      frames.noteLink(link, item);
    },
  });
  const notes = new Map<string, RunNote>();
  const context: SourceContext = {
    session,
    origin,
    orgUnitId,
    now,
    signal,
    courseIndex: index,
    emit: (item, done) => checks.check(item, done),
    note: (note) => void (notes.has(note.key) || notes.set(note.key, note)),
    progress,
  };
  // The "links" phase: the link checker works from the first page read, but its progress is shown
  // once the pages and documents are read and the run only waits for the last answers.
  const finishLinks = async () => {
    inLinkPhase = true;
    progress('links', linkChecker.done, linkChecker.total);
    await checks.linksDone();
    progress('links', linkChecker.done, linkChecker.total);
  };
  return { checks, finishLinks, documents, frames, notes, context };
}
