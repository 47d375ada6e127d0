// Benchmark of the engine's hot path against linkinator, on the same pages from the same servers:
//   npm run bench:engine [-- --rounds 3] [--instant] [--no-documents] [--a11y-only] [--reruns-only]
// A synthetic course (300 topics, 3300 link occurrences, 1300+ distinct addresses on 40 hosts, some
// slow, some broken) and a course stylesheet every topic uses are served on loopback by a child
// process. The engine and linkinator each run in their own child process, in alternating order, so
// neither inherits the other's memory or warm connections. It prints throughput, peak memory and
// whether both found the same broken links, then the link throughput ratio. The course also has 50
// documents (30 PDFs of 1-40 pages made here with pdf-lib, 20 Word and PowerPoint files from the
// test fixtures) whose links are addresses the pages already link to; a child of its own reads them
// alone for documents per second and the reader's memory. And it has 100 assignments, 50 quizzes,
// 30 discussion forums and a 200-item gradebook: a child runs the engine over the whole course
// (every scope) and its full-run time is printed against the modules-only run, which reads what a
// run read before course-wide scopes. With a Chromium installed, the engine checks accessibility in
// it, and a bare loop (one browser page, axe-core's defaults, topic after topic) runs too: the last
// line is then the engine's speed-up over it. The accessibility runner also checks the 300 topics
// alone, in a child of its own, once with axe-core alone and once with IBM's Equal Access engine
// beside it, for the accessibility time per topic of each (`--a11y-only` runs only those).
// Each round then runs the engine three times with a verdict cache of its own (SQLite, as the local
// stack keeps it): a first run that fills it, a second of the unchanged course, and a third after one
// topic, one stylesheet (week 1's own, used by its 20 topics) and one PDF changed; the last lines are
// the first run's time over each re-run's (`--reruns-only` runs only those).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startBrightspaceSite, type SiteModel } from '../api/local/demo-course/brightspace-site.ts';
import { type CourseModel, type ModuleModel, type TopicModel } from '../api/local/demo-course/course-model.ts';
import type { CourseScope } from '../api/brightspace/course-scopes.ts';
import { startLinkHost, type LinkHost } from '../api/local/demo-course/link-host.ts';
import { readdir, readFile } from 'node:fs/promises';
import { RENDERING_USER_AGENT } from '../api/a11y/page-resources.ts';
import type { VerdictCache } from '../api/engine/verdict-cache.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const ORG_UNIT = 4242;
const CODE = 'BENCH';
const USER = 'bench.user';
const PASSWORD = 'bench-password-not-secret';
const MODULES = 15;
const TOPICS_PER_MODULE = 20;
const LINKS_PER_TOPIC = 11;
const DISTINCT = 1300;
const HOSTS = 40;
const UNREACHABLE = 5;
const CSS_ASSETS = 8;
const LINKINATOR_TIMEOUT_MS = 15_000;
const SLOW_RANGE: [number, number] = [1000, 2500];
const PDFS = 30;
const OFFICE_FILES = 20;
const OFFICE_FIXTURES = ['clean.docx', 'long.docx', 'short.docx', 'clean.pptx', 'untitled.pptx'];
const NORMAL_RANGE: [number, number] = [50, 500];
const ASSIGNMENTS = 100;
const QUIZZES = 50;
const FORUMS = 30;
const TOPICS_PER_FORUM = 2;
const MANUAL_GRADE_ITEMS = 200 - ASSIGNMENTS - QUIZZES - FORUMS;
const ALL_SCOPES: CourseScope[] = ['assignments', 'quizzes', 'discussions', 'announcements', 'overview', 'gradebook'];

interface ServeConfig {
  siteOrigin: string;
  pageUrls: string[];
  cookie: string;
  topics: number;
  occurrences: number;
  distinct: number;
  hosts: number;
  slow: number;
  slowRange: [number, number];
  instant: boolean;
  expectedBroken: string[];
  activities: { assignments: number; quizzes: number; forums: number; gradeItems: number };
  /** The course's documents, also written to disk for the documents-alone child. */
  documentFiles: string[];
  documentPages: number;
}

interface ToolResult {
  wallMs: number;
  peakRssSampled: number;
  maxRss: number;
  /** The process and every process it started (the browser), proportional set size, at its peak. */
  peakTreePss?: number;
  /** CPU time the process and its descendants used (a busy machine stretches wall time, not this). */
  treeCpuMs?: number;
  a11yMode?: string;
  broken: string[];
  topics?: number;
  links?: number;
  items?: number;
  documents?: number;
  findings?: Record<string, number>;
  siteRequests?: number;
}

interface DocumentsResult {
  wallMs: number;
  documents: number;
  failed: number;
  pages: number;
  peakRssSampled: number;
  maxRss: number;
}

interface Window {
  firstPageAt: number;
  lastDoneAt: number;
  requests: number;
  /** Requests to the Brightspace site's API (readers, topic files, release conditions). */
  apiRequests: number;
}

/** A small seeded generator: the same course on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function peakSampler(): { stop: () => number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

/**
 * A process and its descendants (Chromium's processes): their PSS summed, so pages they share count
 * once, and the CPU time they have used (user and system; Linux counts it in ticks of 1/100 s).
 */
async function treeUsage(root: number): Promise<{ pss: number; cpuMs: number }> {
  const parents = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      cpu.set(Number(entry), (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Set([root]);
  for (let grown = true; grown; ) {
    grown = false;
    for (const [pid, parent] of parents) {
      if (!tree.has(pid) && tree.has(parent)) {
        tree.add(pid);
        grown = true;
      }
    }
  }
  let pss = 0;
  let cpuMs = 0;
  for (const pid of tree) {
    cpuMs += cpu.get(pid) ?? 0;
    try {
      const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8');
      pss += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
    } catch {
      // gone meanwhile
    }
  }
  return { pss, cpuMs };
}

/** Samples a child's process tree from this process, so the sampling costs the tool measured nothing. */
function treeSampler(root: number): { stop: () => Promise<{ peakPss: number; cpuMs: number }> } {
  let peakPss = 0;
  // Per process, the most CPU time seen: a process that ends keeps what it used.
  let cpuMs = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const usage = await treeUsage(root);
      peakPss = Math.max(peakPss, usage.pss);
      cpuMs = Math.max(cpuMs, usage.cpuMs);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { peakPss, cpuMs };
    },
  };
}

// ---- the documents ------------------------------------------------------------------------------

/** A text PDF of `pages` pages, two links per page to addresses of the course's pages. */
async function benchPdf(index: number, pages: number, links: string[]): Promise<Uint8Array> {
  // Loaded here only: the tools' child processes must not carry pdf-lib in their memory.
  const { PDFDocument, PDFName, PDFString, StandardFonts } = await import('pdf-lib');
  const document = await PDFDocument.create({ updateMetadata: false });
  if (index % 2 === 0) document.setTitle(`Reading pack ${index + 1}`);
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = document.addPage([612, 792]);
    page.drawText(`Reading pack ${index + 1}, page ${p + 1}`, { x: 72, y: 740, size: 16, font });
    for (let line = 0; line < 30; line++) {
      page.drawText(`Line ${line + 1}: wetlands store carbon, filter water and shelter birds, fish and insects through the year.`, { x: 72, y: 710 - line * 20, size: 10, font });
    }
    const annotations = [0, 1].map((k) => document.context.register(document.context.obj({
      Type: 'Annot', Subtype: 'Link', Rect: [72, 90 - k * 20, 300, 104 - k * 20], Border: [0, 0, 0],
      A: { Type: 'Action', S: 'URI', URI: PDFString.of(links[(index * 80 + p * 2 + k) % links.length]!) },
    })));
    page.node.set(PDFName.of('Annots'), document.context.obj(annotations));
  }
  return document.save();
}

// ---- the servers (child process) ----------------------------------------------------------------

async function serve(instant: boolean, withDocuments: boolean): Promise<void> {
  const next = random(20260301);
  const hosts: LinkHost[] = [];
  for (let i = 0; i < HOSTS; i++) hosts.push(await startLinkHost({ host: `127.0.0.${i + 2}` }));
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));

  // The distinct addresses, each with its behaviour; shuffled so slow and broken ones spread out.
  const assets: SiteModel['files'] = {};
  const pool: { url: string; image: boolean }[] = [];
  const expectedBroken: string[] = [];
  let slow = 0;
  // Loopback answers in microseconds; a HEAD to a real site takes tens to hundreds of milliseconds
  // (round trips, TLS, the server's own work), so every address gets a latency: 50-500 ms for most,
  // 1-2.5 s for the slow ones. --instant leaves it out to show the tools with nothing to wait for.
  // The draw is made either way so that --instant serves the very same course.
  const latency = () => {
    const ms = NORMAL_RANGE[0] + Math.floor(next() * (NORMAL_RANGE[1] - NORMAL_RANGE[0]));
    return instant ? 0 : ms;
  };
  for (let i = 0; i < DISTINCT; i++) {
    const host = hosts[i % HOSTS]!.origin;
    const r = next();
    if (r < 0.8) pool.push({ url: `${host}/delay/${latency()}/ok/page-${i}`, image: false });
    else if (r < 0.9) {
      slow++;
      pool.push({ url: `${host}/delay/${SLOW_RANGE[0] + Math.floor(next() * (SLOW_RANGE[1] - SLOW_RANGE[0]))}/ok/page-${i}`, image: false });
    } else if (r < 0.94) {
      const url = `${host}/delay/${latency()}/missing/page-${i}`;
      pool.push({ url, image: false });
      expectedBroken.push(url);
    } else if (r < 0.96) {
      const url = `${host}/delay/${latency()}/gone/page-${i}`;
      pool.push({ url, image: false });
      expectedBroken.push(url);
    } else if (r < 0.99) pool.push({ url: `${host}/delay/${latency()}/moved/page-${i}`, image: false });
    else {
      const path = `/content/enforced/${ORG_UNIT}-${CODE}/assets/figure-${i}.png`;
      assets[path] = { contentType: 'image/png', body: 'png' };
      pool.push({ url: path, image: true });
    }
  }
  for (let i = 0; i < UNREACHABLE; i++) {
    const url = `http://127.0.0.1:${closedPort}/gone-server-${i}`;
    pool.push({ url, image: false });
    expectedBroken.push(url);
  }
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }

  // The course's own stylesheet, used by every topic: the engine reads it once (with the session)
  // and checks its addresses; linkinator checks the stylesheet's own address only.
  const stylesheetPath = `/content/enforced/${ORG_UNIT}-${CODE}/course.css`;
  const cssAssets = Array.from({ length: CSS_ASSETS }, (_, i) => `${hosts[i % HOSTS]!.origin}/delay/${latency()}/ok/course-css-${i}.png`);
  assets[stylesheetPath] = {
    contentType: 'text/css; charset=utf-8',
    body: `@import url("${hosts[0]!.origin}/delay/${latency()}/ok/fonts.css");\n${cssAssets.map((url, i) => `.figure-${i} { background-image: url("${url}"); }`).join('\n')}\n`,
  };

  const modules: ModuleModel[] = [];
  let occurrences = 0;
  for (let m = 0; m < MODULES; m++) {
    const topics: TopicModel[] = [];
    for (let t = 0; t < TOPICS_PER_MODULE; t++) {
      const index = m * TOPICS_PER_MODULE + t;
      // Week 1's topics also use a stylesheet of their own, which the re-run benchmark changes.
      const weekSheet = m === 0 ? '<link rel="stylesheet" href="week.css">' : '';
      const links = Array.from({ length: LINKS_PER_TOPIC }, (_, j) => pool[(index * LINKS_PER_TOPIC + j) % pool.length]!);
      occurrences += links.length;
      const items = links
        .map((link, j) => (link.image
          ? `<li><img src="${link.url}" alt="Figure ${j + 1} of the week ${m + 1} reading"></li>`
          : `<li><a href="${link.url}">Reading ${j + 1}: source material for week ${m + 1}</a></li>`))
        .join('\n');
      topics.push({
        id: 100_000 + index,
        title: `Week ${m + 1}, part ${t + 1}`,
        kind: 'html',
        fileName: `m${m + 1}/t${t + 1}.html`,
        html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Week ${m + 1}, part ${t + 1}</title><link rel="stylesheet" href="../course.css">${weekSheet}</head><body>
<h2>Week ${m + 1}, part ${t + 1}</h2>
<p>This part introduces the week's topic. Read the sources below before the live session, and note two questions to bring.</p>
<ul>
${items}
</ul>
<table><caption>Schedule</caption><tr><th scope="col">Day</th><th scope="col">Activity</th></tr><tr><td>Monday</td><td>Reading</td></tr><tr><td>Thursday</td><td>Discussion</td></tr></table>
<p>Questions? Post them in the discussion board for this week.</p>
</body></html>`,
      });
    }
    modules.push({ id: 1000 + m, title: `Week ${m + 1}`, topics });
  }

  // The documents, in a module of their own after the weeks; their links are the pages' addresses.
  const documentDir = mkdtempSync(join(tmpdir(), 'ctpo-bench-documents-'));
  const pageLinks = pool.filter((link) => !link.image).map((link) => link.url);
  const documentTopics: TopicModel[] = [];
  const documentFiles: string[] = [];
  let documentPages = 0;
  // --no-documents serves the same course without them, to compare the link window with and without.
  for (let i = 0; i < (withDocuments ? PDFS + OFFICE_FILES : 0); i++) {
    let name: string;
    let body: Buffer;
    if (i < PDFS) {
      const pages = 1 + ((i * 17) % 40);
      documentPages += pages;
      name = `reading-pack-${i + 1}.pdf`;
      body = Buffer.from(await benchPdf(i, pages, pageLinks));
    } else {
      const fixture = OFFICE_FIXTURES[(i - PDFS) % OFFICE_FIXTURES.length]!;
      name = `handout-${i + 1}-${fixture}`;
      body = readFileSync(new URL(`../test/fixtures/documents/${fixture}`, import.meta.url));
    }
    const path = join(documentDir, name);
    writeFileSync(path, body);
    documentFiles.push(path);
    documentTopics.push({ id: 200_000 + i, title: name, kind: 'file', fileName: `documents/${name}`, contentType: 'application/octet-stream', body });
  }
  if (withDocuments) modules.push({ id: 1000 + MODULES, title: 'Documents', topics: documentTopics });
  // What the Office fixtures link to (site-relative), so that every link in the course but the planted ones works.
  assets['/library/reading.html'] = { contentType: 'text/html', body: '<p>Reading</p>' };
  assets['/library/missing.html'] = { contentType: 'text/html', body: '<p>Here after all</p>' };

  const weekSheetPath = `/content/enforced/${ORG_UNIT}-${CODE}/m1/week.css`;
  assets[weekSheetPath] = { contentType: 'text/css; charset=utf-8', body: 'h2 { letter-spacing: .01em; }\n' };
  // What the 'change' command changes: one topic's page, week 1's stylesheet and one PDF.
  const changedTopic = modules[1]!.topics![0] as Extract<TopicModel, { kind: 'html' }>;
  const originals = { html: changedTopic.html, sheet: assets[weekSheetPath].body as string, document: documentTopics[0] as Extract<TopicModel, { kind: 'file' }> | undefined };
  const originalPdf = originals.document?.body;
  let revision = 0;

  const site = await startBrightspaceSite({
    login: 'form',
    users: [{ username: USER, password: PASSWORD }],
    files: assets,
    courses: [{ orgUnitId: ORG_UNIT, name: 'Benchmark course', code: CODE, modules, ...courseTools(pool.filter((link) => !link.image).map((link) => link.url)) }],
  });
  const absolute = (url: string) => new URL(url, site.origin).href;
  const config: ServeConfig = {
    siteOrigin: site.origin,
    pageUrls: modules.slice(0, MODULES).flatMap((module) => module.topics!.map((topic) => `${site.origin}/content/enforced/${ORG_UNIT}-${CODE}/${(topic as { fileName: string }).fileName}`)),
    cookie: site.openSession(USER),
    topics: MODULES * TOPICS_PER_MODULE,
    occurrences,
    distinct: pool.length,
    hosts: HOSTS + 1,
    slow,
    slowRange: SLOW_RANGE,
    instant,
    expectedBroken: expectedBroken.map(absolute).sort(),
    activities: { assignments: ASSIGNMENTS, quizzes: QUIZZES, forums: FORUMS, gradeItems: ASSIGNMENTS + QUIZZES + FORUMS + MANUAL_GRADE_ITEMS },
    documentFiles,
    documentPages,
  };
  process.stdout.write(`${JSON.stringify(config)}\n`);

  // HTML topics only (ids 100000-199999): the documents' downloads are not link checks.
  const pagePattern = new RegExp(`^/(d2l/api/le/[\\d.]+/${ORG_UNIT}/content/topics/1\\d{5}/file|content/enforced/${ORG_UNIT}-${CODE}/m\\d+/t\\d+\\.html)$`);
  const assetPattern = new RegExp(`^/content/enforced/${ORG_UNIT}-${CODE}/assets/`);
  let since = 0;
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'reset') {
      since = site.requests.length;
      for (const host of hosts) host.requests.length = 0;
      process.stdout.write('ok\n');
    } else if (line === 'window') {
      const siteRequests = site.requests.slice(since);
      const pages = siteRequests.filter((r) => pagePattern.test(r.path));
      // The browser also loads the site's images to render topics: that is not link checking.
      const linkRequests = [...siteRequests.filter((r) => assetPattern.test(r.path) && r.userAgent !== RENDERING_USER_AGENT), ...hosts.flatMap((host) => host.requests)];
      const window: Window = {
        firstPageAt: Math.min(...pages.map((r) => r.at)),
        lastDoneAt: Math.max(...[...pages, ...linkRequests].map((r) => r.doneAt ?? r.at)),
        requests: pages.length + linkRequests.length,
        apiRequests: siteRequests.filter((r) => r.path.startsWith('/d2l/api/')).length,
      };
      process.stdout.write(`${JSON.stringify(window)}\n`);
    } else if (line === 'change') {
      revision++;
      changedTopic.html = originals.html.replace('</body>', `<p>Revised (${revision}).</p></body>`);
      assets[weekSheetPath] = { contentType: 'text/css; charset=utf-8', body: `${originals.sheet}/* revision ${revision} */\n` };
      // Bytes after a PDF's end are a comment to its readers: a new file that reads the same.
      if (originals.document !== undefined && Buffer.isBuffer(originalPdf)) originals.document.body = Buffer.concat([originalPdf, Buffer.from(`\n% revision ${revision}\n`)]);
      process.stdout.write('ok\n');
    } else if (line === 'quit') {
      break;
    }
  }
  await site.close();
  await Promise.all(hosts.map((host) => host.close()));
  rmSync(documentDir, { recursive: true, force: true });
}

/**
 * The course's activities and gradebook: assignments with instructions and a link attachment,
 * quizzes with a description, forums with two topics each, and a weighted gradebook in four
 * categories whose items the activities feed (the rest entered by hand). Links come from the same
 * pool as the topics', so the whole-course run checks a few more addresses, as a real course would.
 */
function courseTools(links: string[]): Partial<CourseModel> {
  const link = (i: number) => links[(i * 37) % links.length]!;
  // Dates from today, all inside the course's: the whole-course run finds links, not dates.
  const day = (offset: number) => new Date(Math.floor(Date.now() / 86_400_000 + offset) * 86_400_000).toISOString();
  const dates = (i: number) => ({ start: day(1 + (i % 20)), due: day(30 + (i % 25)) });
  const weight = (count: number) => 100 / count;
  return {
    start: day(-7),
    end: day(120),
    assignments: Array.from({ length: ASSIGNMENTS }, (_, i) => ({
      id: 20_000 + i,
      name: `Assignment ${i + 1}`,
      instructions: `<p>Hand in the week's exercise as one PDF. Read <a href="${link(i)}">the brief</a> first.</p>`,
      links: [{ name: 'Worked example', href: link(i + 1) }],
      ...dates(i),
      gradeItemId: 40_000 + i,
    })),
    quizzes: Array.from({ length: QUIZZES }, (_, i) => ({ id: 21_000 + i, name: `Quiz ${i + 1}`, description: `<p>Ten questions on week ${(i % 15) + 1}. See <a href="${link(i + 500)}">the notes</a>.</p>`, ...dates(i), gradeItemId: 41_000 + i })),
    forums: Array.from({ length: FORUMS }, (_, i) => ({
      id: 22_000 + i,
      name: `Forum ${i + 1}`,
      description: '<p>Questions and answers about this part of the course.</p>',
      topics: Array.from({ length: TOPICS_PER_FORUM }, (_, j) => ({ id: 23_000 + i * TOPICS_PER_FORUM + j, name: `Topic ${j + 1}`, description: `<p>Discuss <a href="${link(i * 3 + j)}">this reading</a>.</p>` })),
    })),
    announcements: [{ id: 24_000, title: 'Welcome', body: '<p>Welcome to the course.</p>', start: day(-7) }],
    overview: '<p>An overview of the course, its weeks and how it is graded.</p>',
    gradebook: {
      system: 'Weighted',
      categories: [
        { id: 39_001, name: 'Assignments', weight: 40 },
        { id: 39_002, name: 'Quizzes', weight: 30 },
        { id: 39_003, name: 'Discussions', weight: 20 },
        { id: 39_004, name: 'Participation', weight: 10 },
      ],
      items: [
        ...Array.from({ length: ASSIGNMENTS }, (_, i) => ({ id: 40_000 + i, name: `Assignment ${i + 1}`, categoryId: 39_001, weight: weight(ASSIGNMENTS), tool: { toolId: 2000, toolItemId: 20_000 + i } })),
        ...Array.from({ length: QUIZZES }, (_, i) => ({ id: 41_000 + i, name: `Quiz ${i + 1}`, categoryId: 39_002, weight: weight(QUIZZES), tool: { toolId: 51000, toolItemId: 21_000 + i } })),
        ...Array.from({ length: FORUMS }, (_, i) => ({ id: 42_000 + i, name: `Forum ${i + 1}`, categoryId: 39_003, weight: weight(FORUMS), tool: { toolId: 3000, toolItemId: 23_000 + i * TOPICS_PER_FORUM } })),
        ...Array.from({ length: MANUAL_GRADE_ITEMS }, (_, i) => ({ id: 43_000 + i, name: `Participation ${i + 1}`, categoryId: 39_004, weight: weight(MANUAL_GRADE_ITEMS) })),
      ],
    },
  };
}

// ---- the tools (one child process each) ---------------------------------------------------------

async function runEngine(config: ServeConfig, scopes?: CourseScope[], cache?: VerdictCache): Promise<ToolResult> {
  const { runCourseTest } = await import('../api/engine/run-course-test.ts');
  const sampler = peakSampler();
  const started = performance.now();
  const report = await runCourseTest({
    siteUrl: config.siteOrigin,
    username: USER,
    password: PASSWORD,
    orgUnitId: ORG_UNIT,
    modules: 'all',
    ...(scopes === undefined ? {} : { scopes }),
    client: 'Benchmark',
    allowPrivateTargets: true,
    ...(cache === undefined ? {} : { cache }),
  });
  const wallMs = performance.now() - started;
  const broken = new Set(report.findings.filter((f) => (f.check === 'link.broken' || f.check === 'link.unreachable') && f.url !== null).map((f) => f.url!));
  return {
    wallMs,
    peakRssSampled: sampler.stop(),
    a11yMode: report.accessibility?.mode,
    maxRss: process.resourceUsage().maxRSS * 1024,
    broken: [...broken].sort(),
    topics: report.totals.topics,
    links: report.totals.links,
    items: report.items.length,
    documents: report.totals.documents,
    findings: report.totals.findings,
  };
}

async function runLinkinator(config: ServeConfig): Promise<ToolResult> {
  const { LinkChecker, LinkState } = await import('linkinator');
  const sampler = peakSampler();
  const started = performance.now();
  // linkinator's own defaults (concurrency 100, HEAD then GET, no retries), plus a timeout like
  // ours instead of none, and the session cookie so it can read the pages.
  const result = await new LinkChecker().check({
    path: config.pageUrls,
    recurse: false,
    timeout: LINKINATOR_TIMEOUT_MS,
    headers: { cookie: config.cookie },
  });
  const wallMs = performance.now() - started;
  const pages = new Set(config.pageUrls);
  const broken = new Set(result.links.filter((link) => link.state === LinkState.BROKEN && !pages.has(link.url)).map((link) => link.url));
  return { wallMs, peakRssSampled: sampler.stop(), maxRss: process.resourceUsage().maxRSS * 1024, broken: [...broken].sort() };
}

/**
 * The bare loop: one browser, one page; for each topic, set the page's content and run axe-core with
 * its defaults (loaded once: it stays in the page across setContent), one topic after the other.
 * The topics are read first, with the session; only the loop is timed.
 */
async function runBareLoop(config: ServeConfig): Promise<ToolResult> {
  const { chromium } = await import('playwright-core');
  const { findChromium } = await import('../api/a11y/a11y-runner.ts');
  const { AXE_SOURCE } = await import('../api/a11y/axe-rules.ts');
  const { CHROMIUM_ARGS } = await import('../api/a11y/browser-runner.ts');
  const pages = await Promise.all(config.pageUrls.map(async (url) => (await fetch(url, { headers: { cookie: config.cookie } })).text()));
  const started = performance.now();
  const browser = await chromium.launch({ executablePath: findChromium()!, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  for (const html of pages) {
    await page.setContent(html);
    if ((await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe)) === 'undefined') await page.evaluate(AXE_SOURCE);
    await page.evaluate(() => (window as unknown as { axe: { run: (context: Document) => Promise<unknown> } }).axe.run(document).then(() => undefined));
  }
  await browser.close();
  const wallMs = performance.now() - started;
  return { wallMs, peakRssSampled: 0, maxRss: process.resourceUsage().maxRSS * 1024, broken: [] };
}

/**
 * The accessibility runner alone: the topics (read first, with the session) handed to the browser
 * runner all at once, as a run hands them over, its two pages checking them; axe-core alone, or
 * with IBM's Equal Access engine beside it. Only the checking is timed.
 */
async function runA11yAlone(config: ServeConfig, ibm: boolean): Promise<ToolResult> {
  const { findChromium } = await import('../api/a11y/a11y-runner.ts');
  const { BrowserRunner } = await import('../api/a11y/browser-runner.ts');
  const { PageResources } = await import('../api/a11y/page-resources.ts');
  const { GuardedHttpClient } = await import('../api/net/guarded-http.ts');
  const pages = await Promise.all(config.pageUrls.map(async (url) => (await fetch(url, { headers: { cookie: config.cookie } })).text()));
  const http = new GuardedHttpClient({ policy: { allowPrivateTargets: true, allowHttp: true } });
  const site = new URL(config.siteOrigin);
  const resources = new PageResources({ http, siteOrigin: site, orgUnitId: ORG_UNIT, sessionHeaders: (url): Record<string, string> => (url.origin === site.origin ? { cookie: config.cookie } : {}) });
  const runner = new BrowserRunner({ executablePath: findChromium()!, resources, enhancedContrast: false, ibm });
  runner.warmUp();
  await runner.version();
  const sampler = peakSampler();
  const started = performance.now();
  await Promise.all(pages.map((html, index) => runner.run({ html, url: new URL(config.pageUrls[index]!), whole: true })));
  const wallMs = performance.now() - started;
  await runner.close();
  await http.close();
  return { wallMs, peakRssSampled: sampler.stop(), maxRss: process.resourceUsage().maxRSS * 1024, broken: [] };
}

/** The course's documents read one after another by the document reader alone, as the engine reads them. */
async function runDocuments(config: ServeConfig): Promise<DocumentsResult> {
  const { DocumentRunner } = await import('../api/extract/document-runner.ts');
  const { documentTypeOf } = await import('../api/extract/document-facts.ts');
  const runner = new DocumentRunner();
  const sampler = peakSampler();
  const started = performance.now();
  let failed = 0;
  let pages = 0;
  for (const path of config.documentFiles) {
    const result = await runner.read(documentTypeOf(path)!, readFileSync(path));
    if (!result.ok) failed++;
    else if (result.facts.type === 'pdf') pages += result.facts.pagesRead;
  }
  const wallMs = performance.now() - started;
  await runner.close();
  return { wallMs, documents: config.documentFiles.length, failed, pages, peakRssSampled: sampler.stop(), maxRss: process.resourceUsage().maxRSS * 1024 };
}

// ---- the conductor ------------------------------------------------------------------------------

function lines(child: { stdout: Readable }): () => Promise<string> {
  const reader = createInterface({ input: child.stdout });
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  reader.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else queue.push(line);
  });
  return () => new Promise((resolve) => {
    const line = queue.shift();
    if (line !== undefined) resolve(line);
    else waiting.push(resolve);
  });
}

function runChild<T = ToolResult>(mode: string, config: ServeConfig, args: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, mode, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    const tree = treeSampler(child.pid!);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      void tree.stop().then(({ peakPss, cpuMs }) => {
        if (code !== 0) reject(new Error(`${mode} exited with ${code}`));
        else resolve({ ...(JSON.parse(output.trim().split('\n').at(-1)!) as T), peakTreePss: peakPss, treeCpuMs: cpuMs });
      });
    });
    child.stdin.end(JSON.stringify(config));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

async function conduct(rounds: number, instant: boolean, withDocuments: boolean, a11yOnly: boolean, rerunsOnly = false): Promise<void> {
  const server = spawn(process.execPath, [SCRIPT, '--serve', ...(instant ? ['--instant'] : []), ...(withDocuments ? [] : ['--no-documents'])], { stdio: ['pipe', 'pipe', 'inherit'] });
  const readLine = lines(server);
  const config = JSON.parse(await readLine()) as ServeConfig;
  const ask = async (command: string) => {
    server.stdin.write(`${command}\n`);
    return readLine();
  };

  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`CTPO engine benchmark: Node.js ${process.version}, ${availableParallelism()} cores (${cpu}), ${megabytes(totalmem())} RAM`);
  console.log(
    `synthetic course: ${config.topics} HTML topics, ${config.occurrences} link occurrences, ${config.distinct} distinct URLs on ${config.hosts} loopback hosts ` +
      `(${config.instant ? 'no latency' : `latency ${NORMAL_RANGE[0]}-${NORMAL_RANGE[1]} ms`}, ${config.slow} slow at ${config.slowRange[0]}-${config.slowRange[1]} ms; ${config.expectedBroken.length} broken), ` +
      `and a course stylesheet used by every topic with ${CSS_ASSETS + 1} addresses of its own`,
  );
  console.log(`linkinator 8.1.0: its defaults (concurrency 100, HEAD then GET, no retries) with timeout ${LINKINATOR_TIMEOUT_MS} ms and the session cookie; recurse off`);
  console.log('engine: its defaults (512 requests overall, 10 per host, 8 topics at once, HEAD then GET, 2 retries, 15 s timeout), axe-core on every topic (in headless Chromium, 2 pages, when one is installed)');
  const { activities } = config;
  console.log(`course-wide: ${activities.assignments} assignments, ${activities.quizzes} quizzes, ${activities.forums} forums (${activities.forums * TOPICS_PER_FORUM} topics), ${activities.gradeItems} grade items, announcements and an overview`);
  console.log(withDocuments
    ? `documents: ${PDFS} PDFs (${config.documentPages} pages, 1-40 each) and ${OFFICE_FILES} Word and PowerPoint files as File topics; their links are addresses the pages already have`
    : 'documents: none (--no-documents)');
  console.log('link window: from the first page request to the last link answer, as the servers saw them\n');

  const { findChromium } = await import('../api/a11y/a11y-runner.ts');
  const browser = findChromium();
  console.log(browser === undefined
    ? 'browser: no Chromium found (CTPO_CHROMIUM), so the engine checks accessibility in jsdom and the bare loop is not run'
    : `browser: ${browser}; bare loop: one browser, one page, setContent and axe-core's defaults, topic after topic`);
  type Measured = ToolResult & { windowMs: number; apiRequests: number };
  const engine: Measured[] = [];
  const linkinator: Measured[] = [];
  const whole: Measured[] = [];
  const bare: ToolResult[] = [];
  const a11yAxe: ToolResult[] = [];
  const a11yBoth: ToolResult[] = [];
  const reruns: { first: ToolResult; unchanged: ToolResult; changed: ToolResult }[] = [];
  /** A round of re-runs: a verdict cache of the round's own, filled by a first run. */
  const rerunRound = async (round: number) => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'ctpo-bench-verdicts-'));
    try {
      const cacheArgs = [join(cacheDir, 'jobs.sqlite')];
      const first = await runChild('--engine-cached', config, cacheArgs);
      const unchanged = await runChild('--engine-cached', config, cacheArgs);
      await ask('change');
      const changed = await runChild('--engine-cached', config, cacheArgs);
      reruns.push({ first, unchanged, changed });
      console.log(`round ${round + 1} with a verdict cache: first run ${seconds(first.wallMs)}, unchanged re-run ${seconds(unchanged.wallMs)}, re-run after one topic, one stylesheet and one PDF changed ${seconds(changed.wallMs)}`);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  };
  const rerunLines = () => {
    const firstWall = median(reruns.map((r) => r.first.wallMs));
    console.log(`verdict cache (median of ${reruns.length}): first run ${seconds(firstWall)}, unchanged re-run ${seconds(median(reruns.map((r) => r.unchanged.wallMs)))}, one-change re-run ${seconds(median(reruns.map((r) => r.changed.wallMs)))}; findings of the unchanged re-run the same as the first run's: ${reruns.every((r) => JSON.stringify(r.unchanged.findings) === JSON.stringify(r.first.findings))}`);
    console.log(`incremental re-run speed-up: ${(firstWall / median(reruns.map((r) => r.unchanged.wallMs))).toFixed(2)}`);
    console.log(`one-change re-run speed-up: ${(firstWall / median(reruns.map((r) => r.changed.wallMs))).toFixed(2)}`);
  };
  if (rerunsOnly) {
    for (let round = 0; round < rounds; round++) await rerunRound(round);
    rerunLines();
    server.stdin.end('quit\n');
    await new Promise((resolve) => server.once('close', resolve));
    return;
  }
  if (browser !== undefined) {
    for (let round = 0; round < rounds; round++) {
      // Alternating order, so neither is always the one that runs on a warmer machine.
      for (const ibm of round % 2 === 0 ? [false, true] : [true, false]) (ibm ? a11yBoth : a11yAxe).push(await runChild(ibm ? '--a11y-both' : '--a11y-axe', config));
      console.log(`accessibility round ${round + 1}: axe-core alone ${seconds(a11yAxe[round]!.wallMs)}, axe-core and IBM Equal Access ${seconds(a11yBoth[round]!.wallMs)} for ${config.topics} topics`);
    }
    const axeMs = median(a11yAxe.map((r) => r.wallMs)) / config.topics;
    const bothMs = median(a11yBoth.map((r) => r.wallMs)) / config.topics;
    const peak = (results: ToolResult[]) => megabytes(Math.max(...results.map((r) => r.peakTreePss ?? 0)));
    console.log(`accessibility time per topic (median of ${rounds}, 2 browser pages): axe-core alone ${axeMs.toFixed(1)} ms, with IBM Equal Access beside it ${bothMs.toFixed(1)} ms (x${(bothMs / axeMs).toFixed(2)})`);
    console.log(`accessibility alone, peak memory with the browser (PSS): axe-core alone ${peak(a11yAxe)}, with IBM Equal Access ${peak(a11yBoth)}`);
  }
  if (a11yOnly) {
    server.stdin.end('quit\n');
    await new Promise((resolve) => server.once('close', resolve));
    return;
  }
  const orders = [['engine', 'linkinator', 'engine-whole'], ['linkinator', 'engine-whole', 'engine'], ['engine-whole', 'engine', 'linkinator']] as const;
  for (let round = 0; round < rounds; round++) {
    const results: Record<string, Measured> = {};
    for (const tool of orders[round % orders.length]!) {
      await ask('reset');
      const result = await runChild(`--${tool}`, config);
      const window = JSON.parse(await ask('window')) as Window;
      results[tool] = { ...result, windowMs: window.lastDoneAt - window.firstPageAt, apiRequests: window.apiRequests };
    }
    engine.push(results.engine!);
    linkinator.push(results.linkinator!);
    whole.push(results['engine-whole']!);
    if (browser !== undefined) bare.push(await runChild('--bare-loop', config));
    await rerunRound(round);
    console.log(
      `round ${round + 1}: engine ${seconds(results.engine!.wallMs)} (link window ${seconds(results.engine!.windowMs)}), ` +
        `linkinator ${seconds(results.linkinator!.wallMs)} (link window ${seconds(results.linkinator!.windowMs)}), ` +
        `engine over the whole course ${seconds(results['engine-whole']!.wallMs)}` +
        (bare.length > round ? `, bare loop ${seconds(bare[round]!.wallMs)}` : ''),
    );
  }
  const alone: DocumentsResult[] = [];
  for (let round = 0; round < (withDocuments ? rounds : 0); round++) alone.push(await runChild<DocumentsResult>('--documents', config));
  server.stdin.end('quit\n');
  await new Promise((resolve) => server.once('close', resolve));

  const engineWall = median(engine.map((r) => r.wallMs));
  const engineWindow = median(engine.map((r) => r.windowMs));
  const linkinatorWall = median(linkinator.map((r) => r.wallMs));
  const linkinatorWindow = median(linkinator.map((r) => r.windowMs));
  const occurrences = config.occurrences;
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((url, i) => url === b[i]);
  const engineAgrees = engine.every((r) => same(r.broken, config.expectedBroken));
  const linkinatorAgrees = linkinator.every((r) => same(r.broken, config.expectedBroken));
  const bothSame = engine.every((r) => linkinator.every((l) => same(r.broken, l.broken)));

  console.log('');
  console.log(`engine (median of ${rounds}): ${(config.topics / (engineWall / 1000)).toFixed(1)} topics/s over the full run (${seconds(engineWall)}, sign-in to report)`);
  console.log(`engine: ${(occurrences / (engineWindow / 1000)).toFixed(0)} links/s in the link window, ${(occurrences / (engineWall / 1000)).toFixed(0)} links/s over the full run`);
  console.log(`engine: peak RSS ${megabytes(Math.max(...engine.map((r) => r.peakRssSampled)))} sampled every 20 ms, ${megabytes(Math.max(...engine.map((r) => r.maxRss)))} high-water mark`);
  console.log(`linkinator (median of ${rounds}): ${(occurrences / (linkinatorWindow / 1000)).toFixed(0)} links/s in the link window, ${(occurrences / (linkinatorWall / 1000)).toFixed(0)} links/s over its run (${seconds(linkinatorWall)})`);
  console.log(`linkinator: peak RSS ${megabytes(Math.max(...linkinator.map((r) => r.peakRssSampled)))} sampled every 20 ms, ${megabytes(Math.max(...linkinator.map((r) => r.maxRss)))} high-water mark`);
  console.log(`engine findings: ${JSON.stringify(engine[0]?.findings)}; topics ${engine[0]?.topics}, documents ${engine[0]?.documents}, links ${engine[0]?.links}`);
  const documentsWall = median(alone.map((r) => r.wallMs));
  if (alone.length > 0) console.log(
    `documents alone (median of ${rounds}): ${(alone[0]!.documents / (documentsWall / 1000)).toFixed(1)} documents/s, ${(alone[0]!.pages / (documentsWall / 1000)).toFixed(0)} PDF pages/s ` +
      `(${alone[0]!.documents} documents in ${seconds(documentsWall)}, ${alone[0]!.failed} not read, reader started cold)`,
  );
  if (alone.length > 0) console.log(`documents alone: peak RSS ${megabytes(Math.max(...alone.map((r) => r.peakRssSampled)))} sampled every 20 ms, ${megabytes(Math.max(...alone.map((r) => r.maxRss)))} high-water mark`);
  console.log(
    `same broken links: ${bothSame ? 'yes' : 'NO'} (engine ${engine[0]?.broken.length}, linkinator ${linkinator[0]?.broken.length}, planted ${config.expectedBroken.length}; ` +
      `engine matches the plant: ${engineAgrees ? 'yes' : 'no'}, linkinator: ${linkinatorAgrees ? 'yes' : 'no'})`,
  );
  const wholeWall = median(whole.map((r) => r.wallMs));
  console.log(
    `whole course (every scope, median of ${rounds}): ${seconds(wholeWall)} full run against ${seconds(engineWall)} for the modules only (x${(wholeWall / engineWall).toFixed(2)}); ` +
      `${whole[0]?.items} course items besides the topics, ${whole[0]?.links} links, ${whole[0]?.apiRequests} API requests (modules only: ${engine[0]?.apiRequests}); ` +
      `peak RSS ${megabytes(Math.max(...whole.map((r) => r.peakRssSampled)))}`,
  );
  console.log(`whole-course findings: ${JSON.stringify(whole[0]?.findings)}`);
  console.log(`engine accessibility mode: ${engine[0]?.a11yMode}`);
  console.log(`engine + browser processes: peak ${megabytes(Math.max(...engine.map((r) => r.peakTreePss ?? 0)))} (PSS of the engine's process and every process it started, sampled every 100 ms from outside)`);
  if (bare.length > 0) {
    const bareWall = median(bare.map((r) => r.wallMs));
    console.log(`bare loop (median of ${bare.length}): ${seconds(bareWall)} for ${config.topics} topics, ${(bareWall / config.topics).toFixed(0)} ms a topic; peak ${megabytes(Math.max(...bare.map((r) => r.peakTreePss ?? 0)))} with its browser`);
    console.log(`engine full run against the bare loop: ${seconds(engineWall)} vs ${seconds(bareWall)}`);
    const cpu = (results: ToolResult[]) => seconds(median(results.map((r) => r.treeCpuMs ?? 0)));
    console.log(`CPU time with their processes (median): engine ${cpu(engine)} (links and all), bare loop ${cpu(bare)}`);
  }
  console.log(`full-run throughput ratio to linkinator: ${(linkinatorWall / engineWall).toFixed(2)}`);
  console.log(`link throughput ratio to linkinator: ${(linkinatorWindow / engineWindow).toFixed(2)}`);
  if (bare.length > 0) console.log(`browser a11y speed-up over a bare loop: ${(median(bare.map((r) => r.wallMs)) / engineWall).toFixed(2)}`);
  rerunLines();
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

const mode = process.argv[2];
if (mode === '--serve') {
  await serve(process.argv.includes('--instant'), !process.argv.includes('--no-documents'));
} else if (mode === '--engine-cached') {
  const config = JSON.parse(await readStdin()) as ServeConfig;
  const { openSqliteVerdictCache } = await import('../api/jobs/sqlite-verdict-cache.ts');
  const cache = openSqliteVerdictCache({ path: process.argv[3]! });
  const result = await runEngine(config, undefined, cache);
  cache.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else if (mode === '--engine' || mode === '--engine-whole' || mode === '--linkinator' || mode === '--bare-loop' || mode === '--documents' || mode === '--a11y-axe' || mode === '--a11y-both') {
  const config = JSON.parse(await readStdin()) as ServeConfig;
  const result =
    mode === '--linkinator'
      ? await runLinkinator(config)
      : mode === '--documents'
        ? await runDocuments(config)
        : mode === '--bare-loop'
          ? await runBareLoop(config)
          : mode === '--a11y-axe' || mode === '--a11y-both'
            ? await runA11yAlone(config, mode === '--a11y-both')
          : await runEngine(config, mode === '--engine-whole' ? ALL_SCOPES : undefined);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const roundsIndex = process.argv.indexOf('--rounds');
  const rounds = roundsIndex === -1 ? 3 : Number(process.argv[roundsIndex + 1]);
  if (!Number.isInteger(rounds) || rounds < 1) {
    console.error('bench:engine: --rounds must be a whole number of at least 1.');
    process.exitCode = 2;
  } else {
    await conduct(rounds, process.argv.includes('--instant'), !process.argv.includes('--no-documents'), process.argv.includes('--a11y-only'), process.argv.includes('--reruns-only'));
  }
}
