// The verdict cache never gives a stale verdict: on a small course changed at random between two
// runs (pages, the stylesheets and image they load, a document, links turning good or broken), the
// run that reuses what it may finds exactly what a run without a cache finds on the changed course.
// Runs in the real browser, whose verdicts depend on what a page loads. Links are asked again every
// run here (a maximum age of 0): a good answer younger than its age is reused by design, and
// verdict-reuse.test.ts covers that.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCourseTest } from '../../../api/engine/run-course-test.ts';
import type { CourseTestInput } from '../../../api/engine/types.ts';
import type { Report } from '../../../api/report/model.ts';
import { startBrightspaceSite, type BrightspaceSite, type SiteModel } from '../../fixtures/brightspace-site.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';
import { MemoryVerdictCache } from '../support/memory-verdict-cache.ts';

const ORG_UNIT = 7808;
const USER = 'qa.tester';
const PASSWORD = 'Property-Secret-Pa55!';
const FILES = '/content/enforced/7808-PROP1';
const NOW = new Date('2026-03-01T12:00:00Z');
const DOCUMENTS = ['clean.docx', 'headings-skip.docx'].map((name) => readFileSync(new URL(`../../fixtures/documents/${name}`, import.meta.url)));

/** What can change between two runs. */
interface CourseState {
  /** Each page's text: 0 real text, 1 a placeholder, 2 text in the low-contrast class. */
  pages: [number, number];
  /** Each stylesheet's text colour: dark (fine) or light (too little contrast). */
  sheets: [boolean, boolean];
  image: number;
  document: 0 | 1;
  /** Each link: answers or is missing. */
  links: [boolean, boolean, boolean];
}

const stateArbitrary: fc.Arbitrary<CourseState> = fc.record({
  pages: fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 })),
  sheets: fc.tuple(fc.boolean(), fc.boolean()),
  image: fc.integer({ min: 0, max: 2 }),
  document: fc.constantFrom(0 as const, 1 as const),
  links: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
});

let web: LinkHost;
let site: BrightspaceSite;
const model: SiteModel = { login: 'form', users: [{ username: USER, password: PASSWORD }], courses: [] };

function apply(state: CourseState): void {
  const text = (kind: number) => ['<p>Cells form tissues, and tissues form organs.</p>', '<p>Reading list: TBD.</p>', '<p class="note">Cells form tissues.</p>'][kind]!;
  const link = (index: number) => `${web.origin}/${state.links[index] ? 'ok' : 'missing'}/source-${index}`;
  const page = (index: number, sheet: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${index}</title><link rel="stylesheet" href="${sheet}"></head><body><main><h1>Page ${index}</h1>${body}</main></body></html>`;
  model.files = {
    [`${FILES}/a.css`]: { contentType: 'text/css', body: `.note { color: ${state.sheets[0] ? '#bbb' : '#222'}; }` },
    [`${FILES}/b.css`]: { contentType: 'text/css', body: `.note { color: ${state.sheets[1] ? '#ccc' : '#333'}; }` },
    [`${FILES}/pic.png`]: { contentType: 'image/png', body: `png-${state.image}` },
  };
  model.courses = [{
    orgUnitId: ORG_UNIT,
    name: 'Property 101',
    code: 'PROP1',
    modules: [{
      id: 1,
      title: 'Week 1',
      topics: [
        { id: 11, title: 'First page', kind: 'html', fileName: 'first.html', html: page(1, 'a.css', `${text(state.pages[0])}<p><img src="pic.png" alt="A cell"></p><p><a href="${link(0)}">Source one</a>, <a href="${link(1)}">source two</a>.</p>`) },
        { id: 12, title: 'Second page', kind: 'html', fileName: 'second.html', html: page(2, 'b.css', `${text(state.pages[1])}<p><a href="${link(2)}">Source three</a>.</p>`) },
        { id: 13, title: 'Handout', kind: 'file', fileName: 'handout.docx', contentType: 'application/octet-stream', body: DOCUMENTS[state.document]! },
      ],
    }],
  }];
}

function input(cache: MemoryVerdictCache | undefined): CourseTestInput {
  return {
    siteUrl: site.origin,
    username: USER,
    password: PASSWORD,
    orgUnitId: ORG_UNIT,
    modules: 'all',
    client: 'Acme Learning',
    allowPrivateTargets: true,
    ...(cache === undefined ? {} : { cache }),
    options: { now: NOW, linkTimeoutMs: 2_000, linkLimits: { backoffMs: 20 }, enhancedContrast: false, linkMaxAgeMs: 0 },
  };
}

/** The report less what differs between any two runs: its times and what was reused. */
function comparable(report: Report): unknown {
  return { ...report, startedAt: '', finishedAt: '', reuse: undefined };
}

beforeAll(async () => {
  web = await startLinkHost();
  site = await startBrightspaceSite(model);
}, 60_000);

afterAll(async () => {
  await site?.close();
  await web?.close();
});

describe('the verdict cache against a full run', () => {
  it('finds exactly what a full run finds after any change', async () => {
    let reusedSome = false;
    await fc.assert(
      fc.asyncProperty(stateArbitrary, stateArbitrary, async (before, after) => {
        const cache = new MemoryVerdictCache();
        apply(before);
        await runCourseTest(input(cache));
        apply(after);
        const cached = await runCourseTest(input(cache));
        const full = await runCourseTest(input(undefined));
        expect(comparable(cached)).toEqual(comparable(full));
        // Whatever did not change was reused, and nothing reused had changed.
        if (JSON.stringify(before) === JSON.stringify(after)) expect(cached.reuse?.checked).toBe(0);
        reusedSome ||= (cached.reuse?.reused ?? 0) > 0;
      }),
      // Two fixed cases besides the random ones: everything changed, and nothing (so that reuse is
      // seen on every run of the test, whatever the random cases are).
      { numRuns: 7, examples: [[
        { pages: [0, 2], sheets: [false, false], image: 0, document: 0, links: [true, true, true] },
        { pages: [0, 2], sheets: [false, true], image: 1, document: 1, links: [true, false, true] },
      ], [
        { pages: [1, 0], sheets: [true, false], image: 2, document: 1, links: [false, true, true] },
        { pages: [1, 0], sheets: [true, false], image: 2, document: 1, links: [false, true, true] },
      ]] },
    );
    expect(reusedSome).toBe(true);
  }, 600_000);
});
