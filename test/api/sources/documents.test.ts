// Documents through the whole engine, on a Brightspace-like site: File topics that are PDF, Word or
// PowerPoint files and course files that pages link to are read once each, checked, and listed in
// the report; their links are checked like a page's and named by document and page; files that are
// too big, protected or of another format are listed as not scanned, with why.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import type { Report } from '../../../api/report/model.ts';
import { createBrightspaceHandler, type SiteModel } from '../../fixtures/brightspace-site.ts';

const ORG_UNIT = 7300;
const USER = 'doc.tester';
const PASSWORD = 'Doc-Tester-Pa55!';
const HUGE_BYTES = 200 * 1024 * 1024;
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/documents/${name}`, import.meta.url));
const PDF = 'application/pdf';
const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

const model: SiteModel = {
  login: 'form',
  users: [{ username: USER, password: PASSWORD }],
  files: {
    '/content/enforced/7300-BIO/week1/docs/linked.pdf': { contentType: PDF, body: fixture('tagged.pdf') },
    '/content/enforced/7300-BIO/week1/docs/slides.pptx': { contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', body: fixture('untitled.pptx') },
    '/library/reading.html': { contentType: 'text/html', body: page('Reading', '<p>Chapter 2.</p>') },
  },
  courses: [{
    orgUnitId: ORG_UNIT,
    name: 'Biology 101',
    code: 'BIO',
    modules: [{
      id: 1,
      title: 'Week 1',
      topics: [
        { id: 11, title: 'Readings', kind: 'html', fileName: 'week1/readings.html', html: page('Readings', '<p><a href="docs/linked.pdf">Syllabus as a PDF</a>, <a href="docs/slides.pptx">the slides</a>, <a href="syllabus.pdf">the syllabus topic</a> and <a href="/library/missing.html">the field guide</a>.</p>') },
        { id: 12, title: 'More readings', kind: 'html', fileName: 'week1/more.html', html: page('More readings', '<p>Again: <a href="docs/linked.pdf">the syllabus as a PDF</a>, and <a href="docs/gone.pdf">last year\'s notes</a>.</p>') },
        { id: 13, title: 'Syllabus', kind: 'file', fileName: 'week1/syllabus.pdf', contentType: PDF, body: fixture('tagged.pdf') },
        { id: 14, title: 'Handout', kind: 'file', fileName: 'week1/handout.docx', contentType: 'application/octet-stream', body: fixture('long.docx') },
        { id: 15, title: 'Big scan', kind: 'file', fileName: 'week1/big-scan.pdf', contentType: PDF, body: '' },
        { id: 16, title: 'Protected', kind: 'file', fileName: 'week1/protected.pdf', contentType: PDF, body: fixture('encrypted.pdf') },
        { id: 17, title: 'Grades', kind: 'file', fileName: 'week1/grades.xlsx', contentType: 'application/vnd.ms-excel', body: 'xlsx' },
        { id: 18, title: 'Bomb', kind: 'file', fileName: 'week1/bomb.docx', contentType: 'application/octet-stream', body: fixture('zip-bomb.docx') },
        { id: 19, title: 'Pond life', kind: 'file', fileName: 'week1/pond-life.pdf', contentType: PDF, body: fixture('pdfua-figure-no-alt.pdf') },
        { id: 20, title: 'Deep tags', kind: 'file', fileName: 'week1/deep-tags.pdf', contentType: PDF, body: fixture('pdfua-structure-deep.pdf') },
      ],
    }],
  }],
};

let server: Server;
let origin: string;
let report: Report;
let hugeBytesSent = 0;
const handler = createBrightspaceHandler(model);

beforeAll(async () => {
  // The site, except that topic 15's file announces 200 MB and streams it for as long as it is read.
  server = createServer((req, res) => {
    if (/\/content\/topics\/15\/file$/.test(req.url ?? '')) {
      res.writeHead(200, { 'content-type': PDF, 'content-length': String(HUGE_BYTES) });
      const chunk = Buffer.alloc(64 * 1024, 0x25);
      const pump = () => {
        while (!res.destroyed && hugeBytesSent < HUGE_BYTES) {
          hugeBytesSent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      return;
    }
    handler.handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  report = await runCourseTest({
    siteUrl: origin,
    username: USER,
    password: PASSWORD,
    orgUnitId: ORG_UNIT,
    modules: 'all',
    client: 'Docs',
    allowPrivateTargets: true,
    options: { linkTimeoutMs: 2_000, linkLimits: { backoffMs: 20 } },
  });
}, 120_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const site = (path: string) => `${origin}${path}`;
const findingsOf = (topicId: number) => report.findings.filter((finding) => finding.topicId === topicId);

describe('documents in a course', () => {
  it('reads File topics and the course files pages link to, each once, and lists them in the report', () => {
    expect(report.documents.map(({ topicId, url, type, pages, linked }) => ({ topicId, url, type, pages, linked }))).toEqual([
      { topicId: 11, url: site('/content/enforced/7300-BIO/week1/docs/linked.pdf'), type: 'pdf', pages: 2, linked: true },
      { topicId: 11, url: site('/content/enforced/7300-BIO/week1/docs/slides.pptx'), type: 'pptx', pages: 3, linked: true },
      { topicId: 13, url: site('/content/enforced/7300-BIO/week1/syllabus.pdf'), type: 'pdf', pages: 2, linked: false },
      { topicId: 14, url: site('/content/enforced/7300-BIO/week1/handout.docx'), type: 'docx', pages: null, linked: false },
      { topicId: 19, url: site('/content/enforced/7300-BIO/week1/pond-life.pdf'), type: 'pdf', pages: 1, linked: false },
      { topicId: 20, url: site('/content/enforced/7300-BIO/week1/deep-tags.pdf'), type: 'pdf', pages: 1, linked: false },
    ]);
    expect(report.totals).toMatchObject({ topics: 10, scanned: 6, documents: 6 });
    // The linked PDF is read once although two pages link to it; the syllabus topic is not read again.
    const reads = (path: string) => handler.requests.filter((request) => request.path === path && request.method === 'GET').length;
    expect(reads('/content/enforced/7300-BIO/week1/docs/linked.pdf')).toBe(1);
    expect(reads('/content/enforced/7300-BIO/week1/syllabus.pdf')).toBe(0);
  });

  it('reports a linked document on the first page that links to it, with its address', () => {
    const slides = site('/content/enforced/7300-BIO/week1/docs/slides.pptx');
    expect(findingsOf(11).filter((finding) => finding.url === slides).map((finding) => [finding.check, finding.page ?? null])).toEqual([
      ['doc.image-no-alt', 3],
      ['doc.no-title', null],
      ['doc.slide-no-title', 2],
      ['doc.slide-no-title', 3],
    ]);
    expect(findingsOf(12).filter((finding) => finding.document !== undefined)).toEqual([]);
  });

  it('checks the links inside each format like a page’s, naming the document and the page or slide', () => {
    const missing = site('/library/missing.html');
    const broken = report.findings.filter((finding) => finding.check === 'link.broken' && finding.url === missing);
    expect(broken.map(({ topicId, element, page, document }) => ({ topicId, element, page, document }))).toEqual([
      { topicId: 11, element: 'a href', page: undefined, document: undefined },
      { topicId: 11, element: 'pdf link', page: 2, document: site('/content/enforced/7300-BIO/week1/docs/linked.pdf') },
      { topicId: 11, element: 'pptx hyperlink', page: 2, document: site('/content/enforced/7300-BIO/week1/docs/slides.pptx') },
      { topicId: 13, element: 'pdf link', page: 2, document: site('/content/enforced/7300-BIO/week1/syllabus.pdf') },
      { topicId: 14, element: 'docx hyperlink', page: undefined, document: site('/content/enforced/7300-BIO/week1/handout.docx') },
    ]);
    // The same dead link on the page and in the documents it links to are different findings.
    expect(new Set(broken.map((finding) => finding.fingerprint)).size).toBe(broken.length);
    expect(findingsOf(13).filter((finding) => finding.check === 'link.cross-course')).toHaveLength(1);
    // A working link inside a document is not reported.
    expect(report.findings.some((finding) => finding.url === site('/library/reading.html'))).toBe(false);
  });

  it('reports a PDF’s figures without alternative text on their page, and a PDF whose tags are too deep as checked, not fully', () => {
    expect(findingsOf(19).map(({ check, severity, page, count, url }) => ({ check, severity, page, count, url }))).toEqual([
      { check: 'doc.pdf-figure-no-alt', severity: 'error', page: 1, count: 2, url: site('/content/enforced/7300-BIO/week1/pond-life.pdf') },
    ]);
    expect(findingsOf(20).map(({ check, severity }) => [check, severity])).toEqual([['doc.not-fully-checked', 'info']]);
    expect(report.notScanned.some((entry) => entry.topicId === 20)).toBe(false);
  });

  it('refuses a 200 MB file by its announced size without downloading it', () => {
    const big = report.notScanned.find((entry) => entry.topicId === 15);
    expect(big).toMatchObject({ title: 'Big scan', url: site('/content/enforced/7300-BIO/week1/big-scan.pdf') });
    expect(big?.reason).toBe('The file is larger than 50 MB; CTPO does not read files that big.');
    expect(hugeBytesSent).toBeLessThan(16 * 1024 * 1024);
  });

  it('lists a protected PDF, a zip bomb and other formats as not scanned, with why, and goes on', () => {
    const reasons = new Map(report.notScanned.map((entry) => [entry.title, entry.reason]));
    expect(reasons.get('Protected')).toBe('This PDF is protected by a password, so CTPO could not open it. Check it by hand, or upload a copy without an opening password.');
    expect(reasons.get('Bomb')).toMatch(/^This Word file is too large or too complex for CTPO to read/);
    expect(reasons.get('Grades')).toMatch(/^XLSX file/);
    expect([...reasons.keys()].sort()).toEqual(['Big scan', 'Bomb', 'Grades', 'Protected']);
    // A linked file that is not there is a broken link, not a document that could not be read.
    expect(report.findings.some((finding) => finding.check === 'link.broken' && finding.url === site('/content/enforced/7300-BIO/week1/docs/gone.pdf'))).toBe(true);
  });
});
