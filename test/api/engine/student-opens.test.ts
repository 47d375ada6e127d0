// What a student opens beyond a page, through the real engine and the Brightspace-like site: the
// questions of a quiz (each defect found and placed at its question, the look-alike left alone) and
// a quiz whose questions the account may not read (a note, not a failure); links that answer 200
// but are dead, beside real pages of the same sites; frames (a course file's defects found in the
// frame, other sites' frames and an LTI tool listed as not checked, never loaded by the browser).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RENDERING_USER_AGENT } from '../../../api/a11y/page-resources.ts';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import { systemResolver } from '../../../api/net/address-guard.ts';
import type { Report } from '../../../api/report/model.ts';
import { renderCsvReport } from '../../../api/report/render-csv.ts';
import { renderJsonReport } from '../../../api/report/render-json.ts';
import { startBrightspaceSite, type BrightspaceSite } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';
import { startSoftSites, type SoftSites } from '../../fixtures/soft-404-sites.ts';
import { opensCourseInput, opensCourseSite } from '../../fixtures/student-opens.ts';

// Whole engine runs against real servers, on a machine shared with other test runs.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let web: LinkHost;
let soft: SoftSites;
let video: Server;
const videoRequests: { host: string; path: string; agent: string }[] = [];
let site: BrightspaceSite;
let report: Report;

beforeAll(async () => {
  web = await startLinkHost();
  soft = await startSoftSites();
  // The video sites: every address a player, as the providers' embeds answer.
  video = createServer((req, res) => {
    videoRequests.push({ host: req.headers.host ?? '', path: req.url ?? '', agent: req.headers['user-agent'] ?? '' });
    res.writeHead(req.url?.includes('ctpo-missing-page') ? 404 : 200, { 'content-type': 'text/html' }).end('<!doctype html><title>Player</title><video></video>');
  });
  await new Promise<void>((resolve) => video.listen(0, '127.0.0.1', resolve));
  const videoOrigin = `http://127.0.0.1:${(video.address() as AddressInfo).port}`;
  site = await startBrightspaceSite(opensCourseSite(web.origin, { notFoundPage: soft.notFoundPage.origin, toHome: soft.toHome.origin, toSignIn: soft.toSignIn.origin, allShort: soft.allShort.origin, video: videoOrigin }));
  const input = opensCourseInput(site.origin);
  const resolve = async (host: string) => (host === 'www.youtube.com' || host === 'player.vimeo.com' ? [{ address: '127.0.0.1', family: 4 as const }] : systemResolver(host));
  report = await runCourseTest({ ...input, options: { ...input.options, resolve } });
});

afterAll(async () => {
  await site?.close();
  await web?.close();
  await soft?.close();
  video?.closeAllConnections();
  await new Promise<void>((resolve) => (video ? video.close(() => resolve()) : resolve()));
});

const questionRows = () =>
  report.findings.filter((f) => f.question !== undefined).map((f) => `${f.itemType}:${f.itemId} q${f.question} ${f.check}`);

describe('quiz questions', () => {
  it('finds each defect of a question, its answer choices and feedback, placed at the quiz and question number', () => {
    expect(questionRows().sort()).toEqual(['quiz:801 q1 a11y.image-alt', 'quiz:801 q2 link.broken', 'quiz:801 q3 content.placeholder', 'quiz:801 q4 content.session-token']);
    // The clean look-alike (question 5) has no finding, and the quiz's own description none either.
    expect(report.findings.filter((f) => f.itemType === 'quiz' && f.question === undefined)).toEqual([]);
    for (const found of report.findings.filter((f) => f.question !== undefined)) expect(found).toMatchObject({ moduleId: 21, topicId: 211, itemTitle: 'Crystals quiz' });
  });

  it('says where in the report and its twins, and never the session value', () => {
    const csv = renderCsvReport(report);
    expect(csv).toMatch(/question 2/);
    expect(renderJsonReport(report)).toContain('"question": 3');
    expect(renderJsonReport(report)).not.toContain('quizsecret42');
    expect(csv).not.toContain('quizsecret42');
  });

  it('notes a quiz whose questions the account may not read, and still checks the quiz', () => {
    expect(report.notes.map((note) => note.message)).toEqual([expect.stringContaining('may not read quiz questions (HTTP 403)')]);
    expect(report.items.map((item) => `${item.itemType}:${item.itemId}`)).toEqual(['quiz:801', 'quiz:802']);
  });
});

describe('links that answer 200 but are dead', () => {
  const soft404s = () => report.findings.filter((f) => f.check === 'link.soft-404');

  it('finds a "not found" page answered with 200, a redirect to the home page and one to the sign-in page, and no look-alike', () => {
    const origins = (url: string | null) => (url ?? '').replace(soft.notFoundPage.origin, 'NOT-FOUND').replace(soft.toHome.origin, 'HOME').replace(soft.toSignIn.origin, 'SIGN-IN');
    expect(soft404s().map((f) => `${f.topicId} ${origins(f.url)} ${f.linkText}`).sort()).toEqual([
      "213 HOME/2019/field-notes Field notes",
      "213 NOT-FOUND/old-syllabus Last year's syllabus",
      '213 SIGN-IN/reserves/geology Library reserves',
    ]);
    expect(report.findings.filter((f) => f.topicId === 213 && f.check.startsWith('link.')).map((f) => f.check)).toEqual(['link.soft-404', 'link.soft-404', 'link.soft-404']);
    const message = (text: string) => soft404s().find((f) => f.linkText === text)?.message;
    expect(message('Field notes')).toContain("now leads to the site's home page");
    expect(message('Library reserves')).toContain("leads to the site's sign-in page");
    expect(message("Last year's syllabus")).toContain('says it was not found');
  });

  it('asks each host for a missing address once per run, and reads pages only on hosts that answer it with a page', () => {
    for (const host of [soft.notFoundPage, soft.toHome, soft.toSignIn, soft.allShort]) {
      expect(host.paths.filter((path) => path.endsWith('-ctpo-missing-page'))).toHaveLength(1);
    }
    // The link host answers a missing address with 404: no page of it is read beyond its probe.
    expect(web.requests.filter((request) => request.path.endsWith('-ctpo-missing-page'))).toHaveLength(1);
    expect(web.requests.filter((request) => request.path === '/ok/halite').map((request) => request.method)).toEqual(['HEAD']);
  });
});

describe('frames and tools', () => {
  it("finds a course file's defects in the frame that shows it, placed in the frame", () => {
    const framed = report.findings.filter((f) => f.frame !== undefined).map((f) => `${f.topicId} ${f.frame!.replace(site.origin, 'SITE')} ${f.check}`);
    expect(framed.sort()).toEqual([
      '214 SITE/content/enforced/7200-MIN101/week1/gallery-frame.html a11y.image-alt',
      '214 SITE/content/enforced/7200-MIN101/week1/gallery-frame.html content.placeholder',
    ]);
    expect(renderCsvReport(report)).toContain('in the frame “' + site.origin + '/content/enforced/7200-MIN101/week1/gallery-frame.html”');
    // The page around the frames has no finding of its own.
    const outsideFrame = report.findings.filter((f) => f.topicId === 214 && f.frame === undefined);
    expect(outsideFrame.map((f) => `${f.check} ${f.message}`)).toEqual([]);
  });

  it('lists the frames of other sites and the LTI tool in place, as not checked here, with their provider and what to check by hand', () => {
    const listed = report.notScanned.map((item) => `${item.topicId} ${item.title}: ${item.reason}`);
    expect(listed).toEqual([
      expect.stringMatching(/^214 How crystals grow: A YouTube video: not checked here.*captions/),
      expect.stringMatching(/^214 Cleavage and fracture: A Vimeo video: not checked here.*captions/),
      expect.stringMatching(/^215 Virtual microscope: An external learning tool \(LTI\): not checked here.*keyboard/),
    ]);
    expect(report.totals.notScanned).toBe(3);
    expect(report.notScanned[0]?.frame).toMatch(/^http:\/\/www\.youtube\.com:\d+\/embed\/M7lc1UVf-VE$/);
  });

  it('never lets the browser load a frame: the video sites hear only the link checker', () => {
    expect(videoRequests.length).toBeGreaterThan(0);
    expect(videoRequests.filter((request) => request.agent === RENDERING_USER_AGENT)).toEqual([]);
    // The course's own framed file is asked for its status (a missing one is missing, as the browser
    // sees it), never read into the page: its content is checked as a page of its own.
    expect(site.requests.filter((request) => request.path.includes('gallery-frame.html') && request.userAgent === RENDERING_USER_AGENT).length).toBeLessThanOrEqual(1);
  });
});
