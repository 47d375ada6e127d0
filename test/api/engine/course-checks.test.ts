// Links to activities wait for the activity readers: decided from what they add to the course
// index once every source has read the course, and checked over HTTP when no reader knew the tool.
// Items that arrive together are checked one per turn of the event loop, and a page's requests
// start before the course stylesheets it uses are read.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { normalizeToc } from '../../../api/brightspace/toc.ts';
import { JsdomRunner } from '../../../api/a11y/jsdom-runner.ts';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { CourseIndex } from '../../../api/sources/course-index.ts';
import { LinkChecker } from '../../../api/net/link-checker.ts';
import { anchorNamesOf } from '../../../api/extract/html.ts';
import { CourseStylesheets } from '../../../api/extract/stylesheets.ts';
import { CourseChecks } from '../../../api/engine/course-checks.ts';
import { GuardedHttpClient } from '../../../api/net/guarded-http.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';

let web: LinkHost;
beforeAll(async () => {
  web = await startLinkHost();
});
afterAll(async () => {
  await web.close();
});

describe('CourseChecks and the course index', () => {
  it('decides activity links after the readers have added their items, and requests the rest', async () => {
    const origin = new URL(web.origin);
    const index = new CourseIndex(normalizeToc({ Modules: [{ ModuleId: 1, Title: 'Week 1', Topics: [{ TopicId: 11, Title: 'Intro' }] }] })!);
    const http = new GuardedHttpClient({ policy: { allowPrivateTargets: true, allowHttp: true } });
    const a11y = new JsdomRunner();
    try {
      const checks = new CourseChecks({ origin, orgUnitId: 6606, links: new LinkChecker({ http, anchorsOf: anchorNamesOf }), a11y, index });
      const link = (path: string, text: string) => ({ raw: path, url: new URL(path, origin).href, element: 'a href', embedded: false, text });
      const place = topicPlace({ ModuleId: 1, Title: 'Week 1' }, { TopicId: 11, Title: 'Intro' });
      await checks.check({
        place,
        url: null,
        links: [
          link('/d2l/common/dialogs/quickLink/quickLink.d2l?ou=6606&type=quiz&rcode=BIO-Q1', 'Quiz 1'),
          link('/d2l/lms/quizzing/user/quiz_summary.d2l?qi=999&ou=6606', 'Old quiz'),
          link('/d2l/lms/quizzing/user/quiz_summary.d2l?qi=802&ou=6606', 'Draft quiz'),
          link('/d2l/lms/dropbox/user/folder_submit_files.d2l?db=7&ou=6606', 'Lab 1'),
        ],
      });
      // The reader of quizzes comes after the topics; no reader knows assignments.
      index.addTool('quiz', [
        { kind: 'quiz', id: 801, code: 'BIO-Q1', title: 'Quiz 1', hidden: false, viewUrl: new URL('/q/801', origin).href },
        { kind: 'quiz', id: 802, code: null, title: 'Draft quiz', hidden: true, viewUrl: new URL('/q/802', origin).href },
      ]);
      await checks.linksDone();
      expect(checks.findings.map((f) => [f.check, f.linkText]).sort()).toEqual([
        ['link.broken', 'Lab 1'],
        ['link.internal-hidden', 'Draft quiz'],
        ['link.internal-missing', 'Old quiz'],
      ]);
      expect(web.requests.map((r) => r.path)).toEqual(['/d2l/lms/dropbox/user/folder_submit_files.d2l?db=7&ou=6606', '/d2l/lms/dropbox/user/folder_submit_files.d2l?db=7&ou=6606']);
    } finally {
      await a11y.close();
      await http.close();
    }
  });
});

describe('CourseChecks and the event loop', () => {
  it('checks items that arrive together one per turn, so that what is waiting meanwhile (link answers) runs between them', async () => {
    const origin = new URL(web.origin);
    const http = new GuardedHttpClient({ policy: { allowPrivateTargets: true, allowHttp: true } });
    const a11y = new JsdomRunner();
    const order: string[] = [];
    try {
      // What the first item's checks set going (an answer on its way) must run before the second item's.
      const onLink = (link: { text?: string }) => {
        order.push(link.text ?? '');
        if (link.text === 'first') setImmediate(() => order.push('in between'));
      };
      const checks = new CourseChecks({ origin, orgUnitId: 6606, links: new LinkChecker({ http, anchorsOf: anchorNamesOf }), a11y, onLink });
      const place = topicPlace({ ModuleId: 1, Title: 'Week 1' }, { TopicId: 11, Title: 'Intro' });
      const item = (text: string) => ({ place, url: null, links: [{ raw: `/ok/${text}`, url: new URL(`/ok/${text}`, origin).href, element: 'a href', embedded: false, text }] });
      await Promise.all([checks.check(item('first')), checks.check(item('second'))]);
      await checks.linksDone();
      expect(order).toEqual(['first', 'in between', 'second']);
    } finally {
      await a11y.close();
      await http.close();
    }
  });
});

describe('CourseChecks and course stylesheets', () => {
  it("starts a page's requests while its stylesheet is still being read, and still makes one finding of an address in both", async () => {
    const origin = new URL(web.origin);
    const http = new GuardedHttpClient({ policy: { allowPrivateTargets: true, allowHttp: true } });
    const a11y = new JsdomRunner();
    let release!: (css: string) => void;
    const css = new Promise<string>((resolve) => (release = resolve));
    try {
      const stylesheets = new CourseStylesheets({ read: () => css, isOwn: (url) => url.origin === origin.origin, orgUnitId: 6606 });
      const checks = new CourseChecks({ origin, orgUnitId: 6606, links: new LinkChecker({ http, anchorsOf: anchorNamesOf }), a11y, stylesheets });
      const place = topicPlace({ ModuleId: 1, Title: 'Week 1' }, { TopicId: 11, Title: 'Intro' });
      const content = '<!doctype html><html lang="en"><head><title>Intro</title><link rel="stylesheet" href="/styles/early.css"></head>' +
        '<body><h1>Intro</h1><p><a href="/missing/early-page">The reading</a></p></body></html>';
      await checks.check({ place, url: null, html: { content, baseUrl: new URL('/topics/intro.html', origin), whole: true } });
      // The stylesheet is not read yet, and the page's own address is already asked for.
      await vi.waitFor(() => expect(web.requests.map((r) => r.path)).toContain('/missing/early-page'), { timeout: 10_000 });
      release('.banner { background: url("/missing/early-page"); }');
      await checks.linksDone();
      const broken = checks.findings.filter((f) => f.url === new URL('/missing/early-page', origin).href);
      expect(broken).toHaveLength(1);
      expect(broken[0]).toMatchObject({ check: 'link.broken', count: 2 });
      // HEAD, then the GET that confirms a broken link: the address was asked for once.
      expect(web.requests.filter((r) => r.path === '/missing/early-page').map((r) => r.method)).toEqual(['HEAD', 'GET']);
    } finally {
      await a11y.close();
      await http.close();
    }
  });
});
