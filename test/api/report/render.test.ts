// The report model, its JSON twin and the HTML report: what a QA person acts on, in order (summary,
// Fix first, module → topic with what, where, how to fix and the address labelled), not-scanned items
// in place, repeated problems listed once, course-wide items after the modules, check ids only as
// small secondary text, everything from the course escaped, and one self-contained file.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { english } from '../../../api/i18n/en/catalogue.ts';
import { TOOL_VERSION, buildReport } from '../../../api/report/build-report.ts';
import { REPEATED_MIN_PLACES } from '../../../api/report/groups.ts';
import { renderHtmlReport } from '../../../api/report/render-html.ts';
import { renderJsonReport } from '../../../api/report/render-json.ts';
import { REPORT_STYLE } from '../../../api/report/report-style.ts';
import { CHECKS } from '../../../api/checks/catalogue.ts';
import type { AccessibilityCheckInfo } from '../../../api/a11y/a11y-runner.ts';
import { accessibilityOfReport } from '../../../api/report/accessibility-summary.ts';
import { FINDINGS, SELECTED, sampleReport } from './support/sample-report.ts';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { msg } from '../../../api/i18n/messages.ts';

const report = sampleReport();
const html = renderHtmlReport(report);
const document = new JSDOM(html).window.document;
/** Text as read: spaces collapsed, and without the marks that isolate course text for bidi. */
const plain = (value: string | null | undefined) => value?.replace(/[\u2068\u2069]/g, '').replace(/\s+/g, ' ').trim();
const text = (selector: string, root: ParentNode = document) => [...root.querySelectorAll(selector)].map((element) => plain(element.textContent));

describe('buildReport', () => {
  it('sorts findings by module, module-level first, then topic, severity and check; course-wide last', () => {
    expect(report.findings.map((f) => `${f.moduleId ?? '-'}/${f.topicId ?? '-'} ${f.check}`)).toEqual([
      '1/- structure.date-order',
      '1/11 a11y.image-alt',
      '1/11 link.broken',
      '1/11 link.broken',
      '1/11 link.redirect',
      '2/21 content.placeholder',
      '2/21 link.broken',
      '3/31 link.broken',
      '3/31 structure.hidden',
      '3/32 link.cross-course',
      '-/- link.unverifiable',
    ]);
  });

  it('counts what the JSON twin promises', () => {
    expect(report.totals).toEqual({ topics: 7, scanned: 6, notScanned: 3, documents: 0, links: 7, linksNotCheckable: 2, findings: { error: 8, warning: 1, info: 2 }, review: 1 });
    expect(report.tool).toEqual({ name: 'CTPO', version: TOOL_VERSION });
    expect(report.scopes).toEqual(['announcements', 'gradebook']);
  });
});

describe('renderJsonReport', () => {
  it('is the report model, with the schema the design names', () => {
    const parsed = JSON.parse(renderJsonReport(report));
    expect(parsed).toEqual(JSON.parse(JSON.stringify(report)));
    expect(Object.keys(parsed)).toEqual(expect.arrayContaining(['schemaVersion', 'tool', 'client', 'siteUrl', 'orgUnitId', 'modules', 'language', 'startedAt', 'finishedAt', 'totals', 'findings', 'notScanned']));
  });
});

describe('the HTML report', () => {
  it('isolates course text for the bidirectional algorithm with <bdi>, so text copied out of the report is clean', () => {
    expect(document.querySelector('#module-1-title')?.innerHTML).toBe('<bdi>Week &lt;1&gt;</bdi>');
    expect(document.querySelector('h1')?.innerHTML).toBe('<bdi>Acme "Learning"</bdi>: <bdi>Biology &lt;101&gt;</bdi>');
    // No isolate characters (FSI…PDI) nor the writer's own markers anywhere in what a person copies.
    expect(html).not.toMatch(/[\u2066-\u2069\uE000-\uE003]/);
    expect(document.title).toBe('CTPO report: Acme "Learning", Biology <101>');
  });

  it('links each summary card to the part of the report that tells it', () => {
    const cards = [...document.querySelectorAll('#summary .totals li')].map((card) => [plain(card.querySelector('.label')?.textContent), card.querySelector('a')?.getAttribute('href') ?? null]);
    expect(cards).toEqual([
      ['errors', '#fix-first'],
      ['warning', '#findings'],
      ['notes', '#findings'],
      ['topics scanned', '#findings'],
      ['not scanned', '#not-scanned'],
      ['links checked', '#findings'],
      // Counted, never fetched: nothing in the report lists them.
      ['e-mail, phone and app links (not checkable)', null],
    ]);
    for (const [, href] of cards) if (typeof href === 'string') expect(document.querySelector(href)).not.toBeNull();
  });

  it('names and links what could not be scanned where it says how many', () => {
    expect(plain(document.querySelector('#summary .lead')?.textContent)).toContain('3 items could not be scanned');
    const items = [...document.querySelectorAll('#not-scanned li')];
    expect(items.map((item) => plain(item.textContent))).toEqual([
      expect.stringMatching(/^Week <1> › Marks \(XLSX\): /),
      expect.stringMatching(/^Project › Final essay: /),
      expect.stringMatching(/^Grade item: Participation: /),
    ]);
    for (const item of items) expect(document.querySelector(item.querySelector('a')!.getAttribute('href')!)).not.toBeNull();
  });

  it('puts Fix first right after the summary, with a link to it high up, and folds long lists', () => {
    const order = [...document.querySelectorAll('main > section')].map((section) => section.id);
    expect(order.slice(0, 2)).toEqual(['summary', 'fix-first']);
    expect(document.querySelector('#summary .jump a')?.getAttribute('href')).toBe('#fix-first');
    // A short list is open; a long one is folded under its count (no script: details and summary).
    expect([...document.querySelectorAll('details.more')].every((details) => details.querySelectorAll(':scope > ul > li').length > 5 !== details.hasAttribute('open'))).toBe(true);
  });

  it('escapes everything that comes from the course', () => {
    expect(html).toContain('&lt;script&gt;alert(&quot;topic&quot;)&lt;/script&gt;');
    expect(html).toContain('&quot;Bad &lt;img src=x onerror=alert(1)&gt; link&quot; is not a valid web address');
    expect(html).toContain('Week &lt;1&gt;');
    expect(html).toContain('Acme &quot;Learning&quot;</bdi>: <bdi>Biology &lt;101&gt;');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
  });

  it('links only web addresses', () => {
    expect(html).not.toContain('href="javascript:');
    expect([...document.querySelectorAll('a')].every((link) => /^(https?:|#)/.test(link.getAttribute('href') ?? ''))).toBe(true);
    expect(text('dd.address')).toContain('javascript:alert(1)');
  });

  it('is self-contained: no script, no external style, image or font', () => {
    expect(html).not.toMatch(/<(script|link|img|iframe|object|embed)\b/i);
    expect(html).not.toMatch(/<[^>]*\ssrc=/i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).not.toMatch(/@import/i);
  });

  it('has a header naming the client, site, course, org unit, run time and what was read', () => {
    expect(text('h1')).toEqual(['Acme "Learning": Biology <101>']);
    const meta = Object.fromEntries([...document.querySelectorAll('.meta dt')].map((dt) => [dt.textContent, plain(dt.nextElementSibling?.textContent)]));
    expect(meta).toEqual({
      Client: 'Acme "Learning"',
      Site: 'https://school.example.com/',
      Course: 'Biology <101> (org unit 6606)',
      Run: 'Mar 1, 2026, 10:00 AM to Mar 1, 2026, 10:02 AM UTC (2 min 5 s)',
      'Modules tested': '3',
      'Course-wide items': 'Announcements and Gradebook',
    });
  });

  it('opens with the summary line the job monitor shows, the totals and a chart by module', () => {
    expect(text('.lead')).toEqual(['Found 8 errors, 1 warning, and 2 notes in 6 of 7 topics. 3 items could not be scanned: check them by hand. 1 note needs a person to review it.']);
    expect(text('.totals li')).toEqual(['8errors', '1warning', '2notes', '6 of 7topics scanned', '3not scanned', '7links checked', '2e-mail, phone and app links (not checkable)']);
    const rows = [...document.querySelectorAll('.chart tbody tr')].map((row) => [...row.children].map((cell) => plain(cell.textContent)).join('|'));
    expect(rows).toEqual(['Week <1>||4 errors and 1 note', 'Week 2 & more||2 errors', 'Project||2 errors and 1 warning']);
  });

  it('puts "Fix first" before the findings: errors by problem, the most widespread first, each place linked', () => {
    const sections = [...document.querySelectorAll('main > section')].map((section) => section.id || section.className);
    expect(sections).toEqual(['summary', 'fix-first', 'filters', 'repeated', 'findings', 'course-wide']);
    const groups = [...document.querySelectorAll('#fix-first .fix-first > li')];
    expect(groups.map((group) => group.querySelector('h3')?.textContent)).toEqual([
      'Broken link link.broken',
      'Dates out of order structure.date-order',
      'Image without alt text a11y.image-alt',
      'Placeholder text content.placeholder',
      'Link into another course link.cross-course',
    ]);
    const broken = groups[0]!;
    expect(broken.querySelector('.spread')?.textContent).toBe('4 errors in 3 places');
    expect(broken.textContent).toContain(`How to fix: ${english['fix.link.broken']}`);
    expect(text('.places li', broken)).toEqual(['Week <1> › <script>alert("topic")</script> (2 errors)', 'Week 2 & more › Reading list', 'Project › Brief']);
    // Every place a group links to is in the report.
    for (const link of document.querySelectorAll('#fix-first a')) expect(document.getElementById(link.getAttribute('href')!.slice(1)), link.textContent!).not.toBeNull();
    expect(text('.places a', groups[4]!)).toEqual(['Project › Week 1 quiz › Quiz 1']);
  });

  it('says what is wrong, where, how to fix it and what the address is, for each finding', () => {
    const image = document.querySelector('#topic-11 .finding[data-check-index] dl')!;
    const fields = Object.fromEntries([...image.querySelectorAll('dt')].map((dt) => [dt.textContent, plain(dt.nextElementSibling?.textContent)]));
    expect(fields).toEqual({
      'What is wrong': 'Images must have alternative text (2 elements).',
      Where: 'image “cell-diagram.png” and 2 times on the page #content > p:nth-child(2) > img',
      Page: 'https://school.example.com/content/enforced/6606-BIO/topic-11.html',
      'How to fix': `In Brightspace: open the topic and edit its page. ${english['fix.a11y.image-alt']} How to fix this, explained (axe rule image-alt)`,
    });
    // The element's HTML is there for whoever wants it, folded away rather than in the message.
    expect(text('#topic-11 details summary')).toEqual(['HTML of the element']);
    // axe's selector, which finds the element on the page, as code beside where it is.
    expect(text('#topic-11 dd code.selector')).toEqual(['#content > p:nth-child(2) > img']);
    const redirect = [...document.querySelectorAll('#topic-11 .finding')].find((item) => item.textContent?.includes('Permanent redirect'))!;
    const labels = Object.fromEntries([...redirect.querySelectorAll('dt')].map((dt) => [dt.textContent, plain(dt.nextElementSibling?.textContent)]));
    // Where the author finds it: the element in words with its text or alt, how often, and the
    // element and attribute as written in the HTML editor.
    expect(labels).toMatchObject({ Where: 'image “Map <of> "campus"” and 3 times on the page img srcset', 'File loaded': 'https://example.com/old' });
    expect(redirect.querySelector('dd code.check-id')?.textContent).toBe('img srcset');
    expect(html).toContain("image “<bdi>Map &lt;of&gt; &quot;campus&quot;</bdi>” and 3 times on the page");
  });

  it('shows check ids only as small secondary text', () => {
    const checks = new Set(FINDINGS.map((finding) => finding.check));
    for (const element of document.querySelectorAll('body *')) {
      if (element.classList.contains('check-id') || element.closest('style, .check-id')) continue;
      const own = [...element.childNodes].filter((node) => node.nodeType === 3).map((node) => node.textContent).join('');
      for (const check of checks) expect(own, `${element.tagName}.${element.className}`).not.toContain(check);
    }
    expect(REPORT_STYLE).toMatch(/\.check-id \{[^}]*font-size: \.78rem/);
  });

  it('shows what could not be scanned in its place, with the reason, and counts it', () => {
    const rubric = document.getElementById('topic-13')!;
    expect(plain(rubric.querySelector('h4')?.textContent)).toBe('Marks (XLSX)');
    expect(rubric.querySelector('.not-scanned')?.textContent).toContain('Not scannedXLSX file: CTPO reads HTML pages and PDF, Word and PowerPoint files only. Check this file by hand.');
    expect(rubric.textContent).not.toMatch(/No (findings|problems)/);
    // Inside its module, between the topics before and after it.
    expect(rubric.closest('section')?.id).toBe('module-1');
    expect(document.querySelector('#module-3 > .not-scanned')?.textContent).toContain('Assignment: its instructions are not read by CTPO.');
    expect(document.querySelector('#course-wide #item-grade-item-44 .not-scanned')?.textContent).toContain('Survey: its questions are not read by CTPO.');
    expect(text('.totals li')).toContain('3not scanned');
  });

  it('lists clean topics in one line, linked to Brightspace, rather than a heading each', () => {
    expect(text('#module-1 > .clean')).toEqual(['No problems found in Clean page.']);
    expect(text('#module-2 > .clean')).toEqual(['No problems found in Also clean.']);
    expect(document.querySelector('#module-1 > .clean a')?.getAttribute('href')).toBe('https://school.example.com/d2l/le/content/6606/viewContent/12/View');
    expect(document.getElementById('topic-12')).toBeNull();
  });

  it(`lists a problem found in ${REPEATED_MIN_PLACES} or more places once, and points there from each place`, () => {
    const repeated = document.querySelectorAll('#repeated > .findings > .finding');
    expect(repeated).toHaveLength(1);
    expect(repeated[0]!.textContent).toContain('In 3 places:');
    expect(text('.places a', repeated[0]!)).toEqual(['Week <1> › <script>alert("topic")</script>', 'Week 2 & more › Reading list', 'Project › Brief']);
    for (const topic of ['topic-11', 'topic-21', 'topic-31']) {
      const pointer = document.querySelector(`#${topic} a[href="#repeated-1"]`);
      expect(pointer?.textContent, topic).toBe('Broken link: the same problem is in other places too, see Repeated problems.');
    }
    // Its details are written once.
    expect(html.split('https://example.com/gone/syllabus').length - 1).toBe(2);
  });

  it('puts course-wide items after the modules, each under its own heading', () => {
    expect(text('#course-wide h3')).toEqual(['Grade item: Participation', 'Announcement: -Welcome back']);
    expect(document.querySelector('#course-wide .finding .badge')?.textContent).toBe('Needs review');
  });

  it('renders every finding once: in its place, or under Repeated problems with a pointer in its place', () => {
    const items = document.querySelectorAll('.finding[data-check-index]');
    expect(items.length).toBe(report.findings.length + 1);
    const checks = [...new Set(report.findings.map((finding) => finding.check))].sort();
    for (const [index, check] of checks.entries()) {
      const shown = document.querySelectorAll(`#findings .finding[data-check-index="${index}"], #course-wide .finding[data-check-index="${index}"]`).length;
      expect(shown, check).toBe(report.findings.filter((finding) => finding.check === check).length);
    }
  });

  it('filters by severity and check with CSS only', () => {
    expect(text('.filters label')).toContain('Error (8)');
    expect(html).toContain('body:has(#show-error:not(:checked)) .finding[data-severity="error"] { display: none; }');
    const index = [...new Set(report.findings.map((f) => f.check))].sort().indexOf('link.broken');
    expect(text('.filters label')).toContain('Broken link (4) link.broken');
    expect(html).toContain(`body:has(#show-check-${index}:not(:checked)) .finding[data-check-index="${index}"] { display: none; }`);
  });

  it('says so when there is nothing to fix', () => {
    const clean = renderHtmlReport({ ...report, findings: [], notScanned: [], totals: { ...report.totals, notScanned: 0, review: 0, findings: { error: 0, warning: 0, info: 0 } } });
    const page = new JSDOM(clean).window.document;
    expect(page.querySelector('.lead')?.textContent).toBe('No problems found in 6 of 7 topics.');
    expect(page.querySelector('#fix-first p')?.textContent).toBe(english['report.fix-first.none']);
    expect(page.querySelector('#findings > p')?.textContent).toBe(english['report.findings.none']);
    expect(page.getElementById('show-error')).toBeNull();
    expect(page.getElementById('course-wide')).toBeNull();
  });

  it('has a title and a way to fix for every check of the catalogue', () => {
    for (const check of Object.keys(CHECKS)) {
      expect(english, check).toHaveProperty(`check.${check}`);
      expect(english, check).toHaveProperty(`fix.${check}`);
    }
  });
});

describe('the report style', () => {
  it('uses logical properties only, so a right-to-left report mirrors', () => {
    const physical = REPORT_STYLE.split('\n').filter((line) => /\b(margin|padding|border)-(left|right)\b|(^|[\s;{])(left|right)\s*:|text-align:\s*(left|right)|float:\s*(left|right)/.test(line));
    expect(physical).toEqual([]);
  });

  it('wraps anything long, hides the bars and stacks the fields on a phone, and prints every finding', () => {
    expect(REPORT_STYLE).toContain('overflow-wrap: anywhere');
    expect(REPORT_STYLE).toMatch(/@media \(max-width: 40rem\) \{[\s\S]*\.chart \.col-bar, \.chart \.bar \{ display: none; \}/);
    expect(REPORT_STYLE).toMatch(/@media print \{[\s\S]*\.filters, \.sections \{ display: none; \}[\s\S]*\.finding \{ display: block !important;/);
  });
});

describe('documents in the report', () => {
  const pdf = 'https://school.example.com/content/enforced/6606-BIO/week1/syllabus%20v2.pdf';
  const slides = 'https://school.example.com/content/enforced/6606-BIO/week1/slides.pptx';
  const week1 = { ModuleId: 1, Title: 'Week <1>' };
  const clean = topicPlace(week1, { TopicId: 12, Title: 'Clean page' });
  const script = topicPlace(week1, { TopicId: 11, Title: '<script>alert("topic")</script>' });
  const base = sampleReport();
  const withDocuments = buildReport({
    client: base.client,
    siteUrl: base.siteUrl,
    orgUnitId: base.orgUnitId,
    selected: SELECTED,
    viewUrl: (topicId) => `https://school.example.com/d2l/le/content/6606/viewContent/${topicId}/View`,
    findings: [
      { check: 'link.broken', severity: 'error', ...clean, url: 'https://example.com/gone', message: msg('finding.link.not-found', { status: 404 }), element: 'pdf link', page: 3, document: pdf },
      { check: 'doc.slide-no-title', severity: 'warning', ...clean, url: slides, message: msg('finding.doc.slide-no-title', { slide: 2 }), page: 2, document: slides },
    ],
    notScanned: [],
    documents: [
      { ...clean, url: slides, type: 'pptx', title: 'Week 1', pages: 4, linked: true },
      { ...script, url: pdf, type: 'pdf', title: null, pages: 12, linked: false },
    ],
    scanned: 2,
    links: 1,
    startedAt: new Date('2026-03-01T10:00:00Z'),
    finishedAt: new Date('2026-03-01T10:02:05Z'),
  });
  const page = new JSDOM(renderHtmlReport(withDocuments)).window.document;

  it('lists the documents checked, in course order, with their type, pages and where they were found', () => {
    expect(withDocuments.totals.documents).toBe(2);
    expect(withDocuments.documents.map((item) => item.topicId)).toEqual([11, 12]);
    expect(plain(page.getElementById('documents-title')?.textContent)).toBe('Documents checked (2)');
    const rows = [...page.querySelectorAll('#documents tbody tr')].map((row) => [...row.querySelectorAll('td')].map((cell) => plain(cell.textContent)));
    expect(rows).toEqual([
      ['syllabus v2.pdf', 'PDF', '12', '<script>alert("topic")</script>'],
      ['Week 1', 'PPTX', '4', 'Clean page'],
    ]);
  });

  it('names the document and the page or slide of a finding inside one', () => {
    const wheres = [...page.querySelectorAll('.finding dl')].map((list) => plain(list.textContent));
    expect(wheres.some((where) => where?.includes('on page 3 of the PDF “syllabus v2.pdf”'))).toBe(true);
    expect(wheres.some((where) => where?.includes('slide 2'))).toBe(true);
    // Nothing says "page" of a slide, nor shows the document reader's own name for a link.
    expect(wheres.some((where) => /pdf link|pptx hyperlink|docx hyperlink|page or slide/.test(where ?? ''))).toBe(false);
  });

  it('keeps a broken link inside a document apart from the same link on the page', () => {
    const onPage = buildReport({ ...withDocuments, accessibility: undefined, selected: SELECTED, viewUrl: () => '', findings: [{ check: 'link.broken', severity: 'error', ...clean, url: 'https://example.com/gone', message: msg('finding.link.not-found', { status: 404 }), element: 'a href' }], notScanned: [], scanned: 1, links: 1, startedAt: new Date(), finishedAt: new Date() });
    expect(onPage.findings[0]!.fingerprint).not.toBe(withDocuments.findings.find((f) => f.check === 'link.broken')!.fingerprint);
  });
});

describe('a problem repeated in documents and pages', () => {
  const gone = 'https://example.com/library/missing.html';
  const file = (name: string) => `https://school.example.com/content/enforced/6606-BIO/${name}`;
  const place = (moduleId: number, topicId: number, title: string) => topicPlace({ ModuleId: moduleId, Title: `Module ${moduleId}` }, { TopicId: topicId, Title: title });
  const broken = (at: ReturnType<typeof place>, details: { element: string; linkText: string; page?: number; document?: string }) => ({
    check: 'link.broken',
    severity: 'error' as const,
    ...at,
    url: gone,
    message: msg('finding.link.not-found', { status: 404 }),
    subject: gone,
    ...details,
  });
  const repeated = buildReport({
    client: 'Acme',
    siteUrl: 'https://school.example.com/',
    orgUnitId: 6606,
    selected: [1, 2, 3].map((id) => ({ module: { ModuleId: id, Title: `Module ${id}` }, depth: 0, parentModuleId: null, topics: [{ TopicId: id * 10, Title: `Topic ${id}` }], children: [] })),
    viewUrl: (topicId) => `https://school.example.com/d2l/le/content/6606/viewContent/${topicId}/View`,
    findings: [
      broken(place(1, 10, 'Rubric (PDF)'), { element: 'pdf link', linkText: 'Marking guide', page: 1, document: file('rubric.pdf') }),
      broken(place(2, 20, 'Reading list'), { element: 'pptx hyperlink', linkText: 'the sampling sheet', page: 2, document: file('slides.pptx') }),
      broken(place(3, 30, 'Lab handout'), { element: 'docx hyperlink', linkText: 'sampling sheet', page: 4, document: file('handout.docx') }),
      broken(place(3, 30, 'Lab handout'), { element: 'a href', linkText: 'field guide' }),
    ],
    notScanned: [],
    scanned: 3,
    links: 1,
    startedAt: new Date('2026-03-01T10:00:00Z'),
    finishedAt: new Date('2026-03-01T10:02:05Z'),
  });
  const page = new JSDOM(renderHtmlReport(repeated)).window.document;
  const group = page.querySelector('#repeated .finding')!;

  it('lists every place with its own link text, page or slide and document, and its own advice', () => {
    expect(text('.places li', group)).toEqual([
      'Module 1 › Rubric (PDF): link “Marking guide” on page 1 of the PDF “rubric.pdf” How to fix: In the document the PDF was made from: make the change there, export the PDF again and upload it in place of this one. Point the link at a page that exists, or remove the link.',
      'Module 2 › Reading list: link “the sampling sheet” on slide 2 of the PowerPoint file “slides.pptx” How to fix: In the PowerPoint file: make the change on its slide, then upload it in place of this one. Point the link at a page that exists, or remove the link.',
      // Word has no fixed pages: none is named.
      'Module 3 › Lab handout: link “sampling sheet” in the Word file “handout.docx” How to fix: In the Word file: make the change there, then upload it in place of this one. Point the link at a page that exists, or remove the link.',
      'Module 3 › Lab handout: link “field guide” a href How to fix: In Brightspace: open the topic and edit its page. Point the link at a page that exists, or remove the link.',
    ]);
    // What differs from place to place is not told once for all.
    expect(group.querySelector(':scope > dl')?.textContent).not.toMatch(/Where|How to fix/);
  });

  it('keeps each place\'s own where in its place, pointing to the group', () => {
    const inPlace = page.querySelector('#topic-10 .finding')!;
    expect(plain(inPlace.querySelector('dd')?.textContent)).toBe('link “Marking guide” on page 1 of the PDF “rubric.pdf”');
    expect(inPlace.querySelector('a[href="#repeated-1"]')).not.toBeNull();
  });
});

describe('how accessibility was checked, in the header', () => {
  const base = sampleReport();
  const withInfo = (info: AccessibilityCheckInfo) => {
    const page = new JSDOM(renderHtmlReport({ ...base, accessibility: accessibilityOfReport(info, 'en') })).window.document;
    const meta = Object.fromEntries([...page.querySelectorAll('.meta dt')].map((dt) => [dt.textContent, plain(dt.nextElementSibling?.textContent)]));
    return { page, meta, notes: text('header .a11y-note', page) };
  };

  it('says the browser and axe versions, and which rules failed to run on which number of topics', () => {
    const { meta, notes } = withInfo({ mode: 'browser', axeVersion: '4.14.1', browserVersion: '140.0.1', enhancedContrast: false, notRun: [], ruleErrors: new Map([['color-contrast', 2]]) });
    expect(meta['Accessibility']).toBe('Accessibility was checked with axe-core 4.14.1 in headless Chromium 140.0.1: the WCAG 2.2 A and AA rules and best practices a topic can decide, colour contrast included.');
    expect(notes).toEqual(['The accessibility rule color-contrast failed to run on 2 topics: check those for it by hand.']);
  });

  it('warns without a browser that colour contrast and other rules were not checked', () => {
    const { meta, notes, page } = withInfo({ mode: 'jsdom', axeVersion: '4.14.1', enhancedContrast: false, notRun: ['color-contrast', 'target-size'], ruleErrors: new Map() });
    expect(meta['Accessibility']).toBe('Accessibility was checked with axe-core 4.14.1 without a browser (jsdom). Not run: color-contrast, target-size.');
    expect(notes).toEqual(['Checked without a browser: colour contrast and 1 other rule were not checked. Install Chromium for the full check.']);
    // The footer no longer claims anything about the browser: the header says how this run checked.
    expect(page.querySelector('footer')?.textContent).not.toMatch(/browser/);
  });

  it('says nothing of it for a report without the account', () => {
    expect(document.querySelector('.a11y-note')).toBeNull();
    expect(text('.meta dt')).not.toContain('Accessibility');
  });

  it('lists a repeated accessibility problem once, each place with its own selector', () => {
    const places = [11, 21, 31].map((id) => ({ ...base.findings.find((f) => f.check === 'a11y.image-alt')!, topicId: id, moduleId: id === 11 ? 1 : id === 21 ? 2 : 3 }));
    const page = new JSDOM(renderHtmlReport({ ...base, findings: places })).window.document;
    const repeated = page.querySelector('#repeated .finding')!;
    expect(repeated.querySelector('details code')?.textContent).toBe('<img src="https://school.example.com/img/cell-diagram.png">');
    // What the places share once; each place with its own where, selector included.
    expect(repeated.querySelectorAll(':scope > dl code.selector')).toHaveLength(0);
    expect(repeated.querySelectorAll('.places li code.selector')).toHaveLength(3);
  });
});
