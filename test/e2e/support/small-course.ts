// A one-module course of one topic on a site of its own, for the end-to-end tests that need a run
// they can time: its one link answers after `linkDelayMs` on the demo's link server.
import type { SiteModel } from '../../../api/local/demo-course/brightspace-site.ts';
import { DEMO_ORG_UNIT, DEMO_PASSWORD, DEMO_USER } from '../../../api/local/demo-course/demo-course.ts';

export function smallCourse(linkOrigin: string, name: string, linkDelayMs: number): SiteModel {
  return {
    login: 'form',
    users: [{ username: DEMO_USER, password: DEMO_PASSWORD }],
    courses: [
      {
        orgUnitId: DEMO_ORG_UNIT,
        name,
        code: 'SMALL',
        modules: [
          {
            id: 1,
            title: 'Week 1',
            topics: [{ id: 11, title: 'Reading', kind: 'html', fileName: 'reading.html', html: `<h2>Reading</h2><p>Read <a href="${linkOrigin}/slow/${linkDelayMs}/chapter-1">chapter 1</a>.</p>` }],
          },
        ],
      },
    ],
  };
}
