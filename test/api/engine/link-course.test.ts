// The course of link cases (test/fixtures/link-course.ts), run through the whole engine: every
// broken address is reported and no look-alike is.
import { RENDERING_USER_AGENT } from '../../../api/a11y/page-resources.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import type { Report } from '../../../api/report/model.ts';
import { startBrightspaceSite, type BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';
import { BROKEN_LINK_CHECKS, LINK_COURSE_ORG_UNIT, LINK_COURSE_PASSWORD, LINK_COURSE_USER, linkCourse, scoreLinkCases, type LinkCourse } from '../../fixtures/link-course.ts';

let web: LinkHost;
let site: BrightspaceSite;
let course: LinkCourse;
let report: Report;

beforeAll(async () => {
  web = await startLinkHost();
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  course = linkCourse(web.origin, closedPort);
  site = await startBrightspaceSite(course.site);
  report = await runCourseTest({
    siteUrl: site.origin,
    username: LINK_COURSE_USER,
    password: LINK_COURSE_PASSWORD,
    orgUnitId: LINK_COURSE_ORG_UNIT,
    modules: 'all',
    client: 'Link cases',
    allowPrivateTargets: true,
    options: { linkTimeoutMs: 5_000, linkLimits: { backoffMs: 20 } },
  });
}, 120_000);

afterAll(async () => {
  await site.close();
  await web.close();
});

describe('the link course', () => {
  it('reports every broken address and no look-alike', () => {
    const reported = report.findings.filter((f) => BROKEN_LINK_CHECKS.has(f.check) && f.url !== null).map((f) => f.url!);
    const score = scoreLinkCases(course.cases, reported);
    expect(score.missed.map((c) => `${c.topic}: ${c.what}`)).toEqual([]);
    expect(score.flagged.map((c) => `${c.topic}: ${c.what}`)).toEqual([]);
    expect(score.found.length).toBeGreaterThanOrEqual(70);
  });

  it('says where the author finds each link', () => {
    const byMarker = (marker: string) => report.findings.find((f) => f.url?.includes(marker));
    expect(byMarker('b-attr-second.png')).toMatchObject({ check: 'link.broken', element: 'div style url()' });
    expect(byMarker('b-sheet-cursor.cur')).toMatchObject({ element: 'stylesheet url()', linkText: 'course.css' });
    expect(byMarker('b-srcset-comma.jpg')).toMatchObject({ element: 'img srcset', linkText: 'Photo two' });
    expect(byMarker('b-repeated')).toMatchObject({ element: 'a href', linkText: 'the same broken page' });
    expect(byMarker('viewContent/9101/')).toMatchObject({ check: 'link.internal-hidden', severity: 'warning', linkText: 'The answer key (hidden)' });
    expect(byMarker('b-mailto-invalid')).toMatchObject({ check: 'link.mailto-invalid', severity: 'warning', element: 'a href' });
    expect(byMarker('b-missing-section')).toMatchObject({ check: 'link.fragment-missing', severity: 'warning', linkText: 'Target, missing section' });
    expect(report.totals.linksNotCheckable).toBe(10);
  });

  it('reads each course stylesheet and each fragment target once', () => {
    // The browser that renders topics for the accessibility checks loads the stylesheet too, as
    // itself: those reads are not the link checks'.
    const reads = (path: string) => site.requests.filter((r) => r.path === path && r.method === 'GET' && r.userAgent !== RENDERING_USER_AGENT).length;
    expect(reads('/content/enforced/6060-LINKS/styles/course.css')).toBe(1);
    expect(reads('/content/enforced/6060-LINKS/fragments/target.html')).toBe(1);
  });
});
