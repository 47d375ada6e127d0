// What each checker finds on the course of link cases (test/fixtures/link-course.ts): broken
// addresses reported out of those planted, and look-alikes wrongly reported.
//   npm run bench:links [-- --verbose]
// CTPO runs its whole engine on the course; linkinator 8.1 checks the same topic pages from the
// same servers, with its defaults and with --check-css --retry (given the session cookie so it can
// read the pages). A tool finds a case when an address it reports broken carries the case's marker.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LinkChecker, LinkState } from 'linkinator';
import { runCourseTest } from '../api/engine/run-course-test.ts';
import { startBrightspaceSite } from '../api/local/demo-course/brightspace-site.ts';
import { startLinkHost } from '../api/local/demo-course/link-host.ts';
import { BROKEN_LINK_CHECKS, LINK_COURSE_ORG_UNIT, LINK_COURSE_PASSWORD, LINK_COURSE_USER, linkCourse, scoreLinkCases, type LinkCase } from '../test/fixtures/link-course.ts';

const verbose = process.argv.includes('--verbose');

const web = await startLinkHost();
const closed = createServer();
await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
const closedPort = (closed.address() as AddressInfo).port;
await new Promise<void>((resolve) => closed.close(() => resolve()));
const course = linkCourse(web.origin, closedPort);
const site = await startBrightspaceSite(course.site);
const pages = course.pagePaths.map((path) => `${site.origin}${path}`);

async function ctpo(): Promise<string[]> {
  const report = await runCourseTest({
    siteUrl: site.origin,
    username: LINK_COURSE_USER,
    password: LINK_COURSE_PASSWORD,
    orgUnitId: LINK_COURSE_ORG_UNIT,
    modules: 'all',
    client: 'Link cases',
    allowPrivateTargets: true,
  });
  return report.findings.filter((f) => BROKEN_LINK_CHECKS.has(f.check) && f.url !== null).map((f) => f.url!);
}

async function linkinator(options: { checkCss?: boolean; retry?: boolean }): Promise<string[]> {
  const result = await new LinkChecker().check({ path: pages, recurse: false, headers: { cookie: site.openSession(LINK_COURSE_USER) }, ...options });
  return result.links.filter((link) => link.state === LinkState.BROKEN).map((link) => link.url);
}

const runs: [string, () => Promise<string[]>][] = [
  ['CTPO', ctpo],
  ['linkinator 8.1.0, defaults', () => linkinator({})],
  ['linkinator 8.1.0, --check-css --retry', () => linkinator({ checkCss: true, retry: true })],
];

const broken = course.cases.filter((c) => c.kind === 'broken').length;
const lookAlikes = course.cases.length - broken;
const name = (c: LinkCase) => `${c.topic}: ${c.what}`;
console.log(`link course: ${course.pagePaths.length} topic pages, ${broken} broken addresses to find, ${lookAlikes} look-alikes not to flag\n`);
try {
  for (const [tool, run] of runs) {
    const score = scoreLinkCases(course.cases, await run());
    console.log(`${tool}: finds ${score.found.length} of ${broken} broken links, flags ${score.flagged.length} of ${lookAlikes} look-alikes`);
    if (verbose) {
      for (const c of score.missed) console.log(`  missed: ${name(c)}`);
      for (const c of score.flagged) console.log(`  flagged: ${name(c)}`);
    }
  }
} finally {
  await site.close();
  await web.close();
}
