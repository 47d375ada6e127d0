// The session goes only where the engine reads: a sign-out link in a topic is checked without it, so
// the run stays signed in and reads every topic.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readsWithSession } from '../../../api/brightspace/session.ts';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import type { Report } from '../../../api/report/model.ts';
import { startBrightspaceSite, type BrightspaceSite, type TopicModel } from '../../fixtures/brightspace-site.ts';

const ORIGIN = 'https://school.brightspace.com';
const reads = (path: string) => readsWithSession(new URL(`${ORIGIN}${path}`));

describe('the addresses a link is read at with the session', () => {
  it('are the site’s files, and under /d2l/ the API, a course home page and a topic page', () => {
    expect(reads('/d2l/api/le/1.91/6606/content/toc')).toBe(true);
    expect(reads('/content/enforced/6606-BIO101/week1/reading.html')).toBe(true);
    expect(reads('/content/enforced/6606-BIO101/notes.pdf?ou=6606')).toBe(true);
    expect(reads('/d2l/home/6606')).toBe(true);
    expect(reads('/d2l/le/content/6606/viewContent/101/View')).toBe(true);
    expect(reads('/shared/styles/course.css')).toBe(true);
    expect(reads('/library/reading.html')).toBe(true);
    // A relative "https;//host/page" in a topic: a missing file of the site, not a way into /d2l/.
    expect(reads('/content/enforced/6606-BIO101/https;//example.com/page')).toBe(true);
  });

  it('are never a sign-out, a tool that acts, a page with a query, or an encoded way around the rule', () => {
    for (const path of [
      '/d2l/logout',
      '/D2L/LOGOUT',
      '/d2l/lp/auth/login/logout.d2l',
      '/d2l/lms/dropbox/user/folder_submit_files.d2l?ou=6606',
      '/d2l/home/6606?logout=1',
      '/d2l/home/6606/../../logout',
      '/content/enforced/..%2f..%2fd2l/logout',
      '/content/enforced/%2e%2e/%2e%2e/d2l/logout',
      '//d2l/logout',
      '///D2L/logout',
      '/d2l//logout',
      '/d2l//api/le/1.91/6606/content/toc',
      '/d2l./logout',
      '/D2L /logout',
      '/%64%32%6c/logout',
      '/d2l',
      '/d2l/le/content/6606/viewContent/101/Delete',
    ]) {
      expect(reads(path), path).toBe(false);
    }
  });
});

describe('a course with sign-out links in its first topic, one of them as its stylesheet', () => {
  let site: BrightspaceSite;
  let report: Report;
  const topics: TopicModel[] = Array.from({ length: 21 }, (_, index) => ({
    id: 100 + index,
    title: `Topic ${index + 1}`,
    kind: 'html',
    fileName: `topic-${index + 1}.html`,
    html:
      index === 0
        ? '<link rel="stylesheet" href="/d2l/logout"><h1>Start</h1><p>Done for today? <a href="/d2l/logout">Sign out</a> or <a href="/d2l/lp/auth/login/logout.d2l">log off</a>.</p>'
        : `<h1>Topic ${index + 1}</h1><p>Reading for week ${index + 1}.</p>`,
  }));

  beforeAll(async () => {
    site = await startBrightspaceSite({
      login: 'form',
      users: [{ username: 'qa', password: 'pw-qa-1' }],
      courses: [{ orgUnitId: 6606, name: 'Biology', code: 'BIO101', modules: [{ id: 1, title: 'Weeks', topics }] }],
    });
    report = await runCourseTest({
      siteUrl: site.origin,
      username: 'qa',
      password: 'pw-qa-1',
      orgUnitId: 6606,
      modules: 'all',
      client: 'Acme',
      allowPrivateTargets: true,
      // One topic at a time: the sign-out link is checked while most topics are still to be read.
      options: { topicConcurrency: 1, linkTimeoutMs: 5_000 },
    });
  }, 60_000);
  afterAll(async () => {
    await site?.close();
  });

  it('stays signed in and reads every topic', () => {
    expect(report.notScanned).toEqual([]);
    expect(report.totals).toMatchObject({ topics: 21, scanned: 21, notScanned: 0 });
  });

  it('checks the sign-out links without the session', () => {
    const signOuts = site.requests.filter((request) => /logout/i.test(request.path));
    // The link checks, then the run's own sign-out at the end (the only one with the session).
    expect(signOuts.filter((request) => !request.withSession).map((request) => request.path).sort()).toEqual(
      expect.arrayContaining(['/d2l/logout', '/d2l/lp/auth/login/logout.d2l']),
    );
    expect(signOuts.filter((request) => request.withSession)).toHaveLength(1);
    expect(signOuts.find((request) => request.withSession)?.at).toBe(Math.max(...site.requests.map((request) => request.at)));
  });
});
