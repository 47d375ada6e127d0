// The one entry point every runner uses (local worker pool, Fargate task, command line): signs in,
// reads the course through its sources, runs the checks on every item and link, and returns the
// report model. Runners then write it with the report writers (api/report/).
import { readCourseOutline } from '../brightspace/course-offering.ts';
import { BrightspaceSession, sitePolicy, siteOriginOf } from '../brightspace/session.ts';
import { selectModules } from '../brightspace/toc.ts';
import { anchorNamesOf } from '../extract/html.ts';
import { DocumentRunner } from '../extract/document-runner.ts';
import { CourseIndex } from '../checks/internal-links.ts';
import { DEFAULT_LINK_LIMITS, LinkChecker } from '../net/link-checker.ts';
import { openAccessibilityRunner } from '../a11y/open-a11y-runner.ts';
import { CourseStylesheets, MAX_STYLESHEET_BYTES } from '../extract/stylesheets.ts';
import { GuardedHttpClient } from '../net/guarded-http.ts';
import { buildReport } from '../report/build-report.ts';
import type { Report } from '../report/model.ts';
import type { RunNote, SourceContext } from '../sources/course-items.ts';
import { CourseDocuments } from '../sources/documents.ts';
import { readWholeCourse } from '../sources/whole-course.ts';
import { CourseChecks } from './course-checks.ts';
import type { CourseTestInput } from './types.ts';
import { progressReporter, type RunProgress } from './progress.ts';
import { assertRunInput } from './run-input.ts';

export async function runCourseTest(input: CourseTestInput, onProgress?: (p: RunProgress) => void): Promise<Report> {
  assertRunInput(input);
  const allowPrivateTargets = input.allowPrivateTargets === true;
  const origin = siteOriginOf(input.siteUrl, allowPrivateTargets);
  const options = input.options ?? {};
  const { orgUnitId, signal } = input;
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
  const documentRunner = new DocumentRunner({ limits: options.documentLimits });
  let session: BrightspaceSession | undefined;
  // The browser starts while the run signs in. It never sees the session: the site's files its
  // pages load are read here, with it.
  const a11y = await openAccessibilityRunner({ options, language: input.language, http: linkHttp, siteOrigin: origin, sessionHeaders: (url) => session?.headersFor(url) ?? {}, signal });
  a11y.runner.warmUp();

  try {
    progress('sign-in', 0, 1);
    session = await BrightspaceSession.open({ origin, username: input.username, password: input.password, http: siteHttp, signal });
    const signedIn = session;
    progress('sign-in', 1, 1);

    progress('contents', 0, 1);
    const outline = await readCourseOutline(signedIn, orgUnitId, now);
    const selected = selectModules(outline.toc, input.modules);

    let inLinkPhase = false;
    const linkChecker = new LinkChecker({
      http: linkHttp,
      limits: options.linkLimits,
      headersFor: (url) => signedIn.headersFor(url),
      siteOrigin: origin,
      signal,
      anchorsOf: anchorNamesOf,
      onProgress: (done, total) => {
        if (inLinkPhase) progress('links', done, total);
      },
    });
    const documents = new CourseDocuments(documentRunner, origin, selected);
    const index = new CourseIndex(outline.toc);
    const stylesheets = new CourseStylesheets({
      read: (url) => signedIn.readSiteText(url, MAX_STYLESHEET_BYTES),
      isOwn: (url) => url.origin === origin.origin,
      orgUnitId,
    });
    const checks = new CourseChecks({ origin, orgUnitId, links: linkChecker, a11y: a11y.runner, index, stylesheets, onLink: (link, item) => documents.noteLink(link, item) });
    const notes = new Map<string, RunNote>();
    const context: SourceContext = {
      session: signedIn,
      origin,
      orgUnitId,
      now,
      signal,
      courseIndex: index,
      check: (item, done) => checks.check(item, done),
      addFindings: (findings) => checks.addFindings(findings),
      notScanned: (entry) => void checks.notScanned.push(entry),
      note: (note) => void (notes.has(note.key) || notes.set(note.key, note)),
      progress,
    };

    const course = await readWholeCourse(context, { outline, selected, scopes: input.scopes ?? [], concurrency: topicConcurrency, documents });
    await checks.accessibilityDone();
    // Every page is checked: the accessibility runner (the browser, or jsdom's worker) is closed
    // before the document reader starts, so the two never hold memory at once. How it checked is
    // taken first, while the browser that says its version is still there.
    const accessibility = await a11y.describe(checks.ruleErrors);
    await a11y.runner.close();
    await documents.readAll(context);
    await documentRunner.close();
    signal?.throwIfAborted();

    inLinkPhase = true;
    progress('links', linkChecker.done, linkChecker.total);
    await checks.linksDone();
    progress('links', linkChecker.done, linkChecker.total);

    progress('report', 0, 1);
    const report = buildReport({
      client: input.client.trim(),
      siteUrl: origin.href,
      orgUnitId,
      ...(outline.offering?.name == null ? {} : { courseName: outline.offering.name }),
      language: input.language,
      scopes: input.scopes,
      selected: course.selected,
      courseItems: course.items,
      runNotes: [...notes.values()].map((note) => note.message),
      viewUrl: (topicId) => signedIn.topicViewUrl(orgUnitId, topicId),
      findings: checks.findings,
      notScanned: checks.notScanned,
      documents: checks.documents,
      scanned: checks.scanned,
      links: checks.links,
      linksNotCheckable: checks.linksNotCheckable,
      startedAt,
      finishedAt: new Date(),
      accessibility,
    });
    progress('report', 1, 1);
    return report;
  } finally {
    await a11y.runner.close();
    await session?.close();
    await documentRunner.close();
    await siteHttp.close();
    await linkHttp.close();
  }
}
