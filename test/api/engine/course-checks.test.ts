// Links to activities wait for the activity readers: decided from what they add to the course
// index once every source has read the course, and checked over HTTP when no reader knew the tool.
// Items that arrive together are checked one per turn of the event loop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeToc } from '../../../api/brightspace/toc.ts';
import { JsdomRunner } from '../../../api/checks/jsdom-runner.ts';
import { topicPlace } from '../../../api/checks/finding.ts';
import { CourseIndex } from '../../../api/checks/internal-links.ts';
import { LinkChecker } from '../../../api/checks/link-checker.ts';
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
      const checks = new CourseChecks({ origin, orgUnitId: 6606, links: new LinkChecker({ http }), a11y, index });
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
      index.addActivities('quiz', [{ id: 801, rcode: 'BIO-Q1', title: 'Quiz 1', hidden: false }, { id: 802, title: 'Draft quiz', hidden: true }]);
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
      const checks = new CourseChecks({ origin, orgUnitId: 6606, links: new LinkChecker({ http }), a11y, onLink });
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
