// The checks no accessibility engine makes, in the real browser: each check's failing case, built
// from the W3C's Failure techniques for WCAG 2.2 (F-numbers in the names) and the ACT Rules, beside
// a passing look-alike, rendered by the browser runner and judged from the facts its page sends back
// (probe, keyboard walk). Needs Chromium (Debian's chromium, or CTPO_CHROMIUM), as CI installs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessibilityRunner } from '../../../api/a11y/a11y-runner.ts';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { pageCheckFindings } from '../../../api/checks/page-checks.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { startMissingSiteRunner, type MissingSiteRunner } from '../support/missing-site-runner.ts';

const PLACE = topicPlace({ ModuleId: 1, Title: 'M' }, { TopicId: 2, Title: 'T' });

const page = (body: string, head = '', lang = 'en') => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Topic</title>${head}</head><body>${body}</body></html>`;

let site: MissingSiteRunner;
let origin: string;
/** Through the runner's interface, as the engine calls it. */
let runner: AccessibilityRunner;
let topic = 0;

/** The page checks' findings of HTML rendered at a new address of the site: a whole page, or a fragment. */
async function judge(html: string, whole = true) {
  const url = new URL(`/content/enforced/1-A/page-${++topic}.html`, origin);
  const outcome = await runner.run({ html, url, whole, title: 'Topic' });
  expect(outcome.errors).toEqual([]);
  expect(outcome.page).not.toBeNull();
  return pageCheckFindings(outcome.page, whole, PLACE, url.href);
}
const checksOf = async (html: string, whole = true) => (await judge(html, whole)).map((finding) => finding.check);

beforeAll(async () => {
  // The course site: every file it is asked for is missing (images show their alt text).
  site = await startMissingSiteRunner();
  ({ runner, origin } = site);
}, 120_000);

afterAll(async () => {
  await site?.close();
});

const LONG_TEXT = 'Water moves between the oceans, the air and the land through evaporation, condensation and precipitation, and it carries heat with it as it goes.';

/** [check, case name, failing page, passing look-alike, whole page (default) or fragment]. */
const CASES: [string, string, string, string, boolean?][] = [
  // Keyboard
  ['a11y.focus-not-visible', 'F78: outline removed, nothing in its place',
    page('<p><a href="/syllabus" style="outline:none">Syllabus</a></p>'),
    page('<style>a:focus { outline: none; background: #ffeb3b; }</style><p><a href="/syllabus">Syllabus</a></p>')],
  ['a11y.focus-not-visible', 'F78: a style sheet removes every outline; a box-shadow in its place passes',
    page('<style>*:focus { outline: 0 }</style><p><button>Show answer</button></p>'),
    page('<style>*:focus { outline: 0; box-shadow: 0 0 0 3px #1a73e8 }</style><p><button>Show answer</button></p>')],
  ['a11y.focus-not-visible', 'F78 on a page with a script of its own (tabbed press by press)',
    page('<p><a href="/a">Before</a> <a href="/syllabus" style="outline:none">Syllabus</a></p><script>document.title = "Week 1";</script>'),
    page('<p><a href="/a">Before</a> <a href="/syllabus" style="outline:none; text-decoration:none" onfocus="this.style.textDecoration=\'underline\'">Syllabus</a></p><script>document.title = "Week 1";</script>')],
  ['a11y.focus-removed', 'F55: focus removed by script when received',
    page('<p><a href="/a">Before</a> <a href="/b" onfocus="this.blur()">Lab manual</a> <a href="/c">After</a></p>'),
    page('<p><a href="/a">Before</a> <a href="/b" onfocus="this.style.background=\'yellow\'">Lab manual</a> <a href="/c">After</a></p>')],
  ['a11y.keyboard-trap', 'F10: Tab and Shift+Tab both held by a script',
    page('<p><a href="/a">Before</a></p><input aria-label="Answer" onkeydown="if (event.key === \'Tab\') event.preventDefault()"><p><a href="/c">After</a></p>'),
    page('<p><a href="/a">Before</a></p><input aria-label="Answer" onkeydown="if (event.key === \'Enter\') event.preventDefault()"><p><a href="/c">After</a></p>')],
  ['a11y.click-no-keyboard', 'F54/F42: a span that acts on click, out of the tab order',
    page('<p><span onclick="location.hash=\'next\'">Next page</span></p>'),
    page('<p><button onclick="location.hash=\'next\'">Next page</button></p>')],
  ['a11y.click-no-keyboard', 'F42: a focusable div that acts on click but not on Enter; with a key handler it passes',
    page('<div tabindex="0" role="button" onclick="this.textContent=\'Shown\'">Show answer</div>'),
    page('<div tabindex="0" role="button" onclick="this.textContent=\'Shown\'" onkeydown="if (event.key === \'Enter\') this.click()">Show answer</div>')],
  ['a11y.click-no-keyboard', 'a click listener added by script',
    page('<div id="reveal">Reveal the answer</div><script>document.getElementById("reveal").addEventListener("click", () => {})</script>'),
    page('<div id="reveal"><button>Reveal the answer</button></div><script>document.getElementById("reveal").addEventListener("click", () => {})</script>')],
  // Link purpose
  ['a11y.link-same-text', 'ACT b20e66 / F84: the same text for two places',
    page('<ul><li><a href="/week1/notes.pdf">Lecture notes</a></li><li><a href="/week2/notes.pdf">Lecture notes</a></li></ul>'),
    page('<ul><li><a href="/week1/notes.pdf">Lecture notes</a></li><li><a href="/week1/notes.pdf">Lecture notes</a></li><li><a href="/week2/notes.pdf">Week 2 lecture notes</a></li></ul>')],
  ['a11y.link-nowhere', 'href="#" that goes nowhere',
    page('<p><a href="#">Show the answer</a></p>'),
    page('<p><a href="#answers">Show the answer</a></p><h2 id="answers">Answers</h2>')],
  ['a11y.link-same-text', 'an SVG link among them (its address is read from its attribute)',
    page('<p><a href="/a.pdf">Map</a></p><svg width="100" height="40"><a href="/b.pdf"><text x="5" y="20">Map</text></a></svg>'),
    page('<p><a href="/b.pdf">Map</a></p><svg width="100" height="40"><a href="/b.pdf"><text x="5" y="20">Map</text></a></svg>')],
  ['a11y.link-nowhere', 'javascript: address',
    page('<p><a href="javascript:void(0)">Open the glossary</a></p>'),
    page('<p><a href="/glossary">Open the glossary</a></p>')],
  ['a11y.link-new-window', 'F22: a new window without a word of warning',
    page('<p><a href="https://library.example.edu/" target="_blank">University library</a></p>'),
    page('<p><a href="https://library.example.edu/" target="_blank">University library (opens in a new window)</a></p>')],
  ['a11y.link-new-window', 'F22: a warning in the title counts, an icon without alt does not',
    page('<p><a href="https://library.example.edu/" target="_blank">University library <img src="ext.png" alt=""></a></p>'),
    page('<p><a href="https://library.example.edu/" target="_blank" title="Opens in a new tab">University library</a></p>')],
  ['a11y.link-adjacent-duplicate', 'H2: image link beside a text link to the same place',
    page('<p><a href="/lab-manual.pdf"><img src="manual.png" alt="Lab manual"></a> <a href="/lab-manual.pdf">Lab manual</a></p>'),
    page('<p><a href="/lab-manual.pdf"><img src="manual.png" alt=""> Lab manual</a> <a href="/safety.pdf"><img src="s.png" alt="Safety sheet"></a></p>')],
  // Images
  ['a11y.alt-image-of', 'F30-like: the alt text announces an image',
    page('<p><img src="cell.png" alt="Image of an animal cell with its organelles"></p>'),
    page('<p><img src="cell.png" alt="An animal cell with its organelles"></p>')],
  ['a11y.alt-too-long', 'alt text longer than a listener bears',
    page(`<p><img src="cycle.png" alt="${LONG_TEXT} ${LONG_TEXT}"></p>`),
    page(`<p><img src="cycle.png" alt="The water cycle: evaporation, condensation, precipitation."></p><p>${LONG_TEXT}</p>`)],
  // Language of parts
  ['a11y.language-of-parts', 'H58: a French passage in an English page, not marked',
    page('<p>Read the passage below before the seminar.</p><p>La photosynthèse est le processus par lequel les plantes vertes utilisent la lumière du soleil pour produire leur nourriture.</p>'),
    page('<p>Read the passage below before the seminar.</p><p lang="fr">La photosynthèse est le processus par lequel les plantes vertes utilisent la lumière du soleil pour produire leur nourriture.</p>')],
  ['a11y.language-of-parts', 'ACT ucwvc8: a page marked German whose text is French; names and a short quote are never flagged',
    page('<p>Lisez les chapitres trois et quatre avant le prochain cours magistral, puis répondez au questionnaire.</p>', '', 'de'),
    page(`<p>${LONG_TEXT} As Descartes wrote, « Je pense, donc je suis ». Marie Curie, Louis Pasteur and Alexander von Humboldt.</p>`)],
  ['a11y.language-of-parts', 'a description: only parts marked with a lang of their own are judged',
    '<p>Lisez le texte avant le séminaire.</p><p lang="es">The water cycle moves heat around the planet through evaporation and rain over the oceans.</p>',
    '<p>La photosynthèse est le processus par lequel les plantes vertes utilisent la lumière du soleil pour produire leur nourriture.</p>', false],
  // Structure and typography
  ['a11y.layout-table-data-markup', 'F46: th and caption in a layout table',
    page('<table role="presentation"><caption>Layout</caption><tr><th>Menu</th><td>Content of the week</td></tr></table>'),
    page('<table role="presentation"><tr><td>Menu</td><td>Content of the week</td></tr></table>')],
  ['a11y.table-no-headers', 'F91: a data table without header cells',
    page('<table><tr><td>Week</td><td>Topic</td></tr><tr><td>1</td><td>Ecosystems</td></tr><tr><td>2</td><td>Water</td></tr></table>'),
    page('<table><tr><th scope="col">Week</th><th scope="col">Topic</th></tr><tr><td>1</td><td>Ecosystems</td></tr><tr><td>2</td><td>Water</td></tr></table>')],
  ['a11y.text-justified', 'F88: justified text over several lines',
    page(`<p style="text-align: justify; width: 300px">${LONG_TEXT}</p>`),
    page(`<p style="text-align: left; width: 300px">${LONG_TEXT}</p><p style="text-align: justify">A single line.</p>`)],
  ['a11y.text-all-caps', 'a block of capitals, typed or by text-transform',
    page('<p>PLEASE READ ALL OF THE INSTRUCTIONS BEFORE YOU START THE LAB EXERCISE.</p>'),
    page('<h2>WEEK 1</h2><p>Read the NASA and UNESCO reports before the WHO briefing on Monday.</p>')],
  ['a11y.text-all-caps', 'text-transform: uppercase',
    page(`<p style="text-transform: uppercase">${LONG_TEXT}</p>`),
    page(`<p style="text-transform: none">${LONG_TEXT}</p>`)],
  ['a11y.underline-not-link', 'underlined text that is not a link',
    page('<p>Submit the <u>final version</u> of your report.</p>'),
    page('<p>Submit the <a href="/final">final version</a> of your report, <abbr title="as soon as possible">ASAP</abbr>.</p>')],
  ['a11y.text-blink', 'F4: text-decoration: blink',
    page('<p><span style="text-decoration: blink">Deadline extended</span></p>'),
    page('<p><strong>Deadline extended</strong></p>')],
  ['a11y.auto-refresh', 'F41: a description that refreshes itself every 30 seconds',
    '<meta http-equiv="refresh" content="30"><p>Scores are updated live.</p>',
    '<p>Scores are updated when you reload the page.</p>', false],
  ['a11y.auto-refresh', 'F40: a timed redirect; a link the student follows passes',
    '<meta http-equiv="refresh" content="10; url=/next"><p>This page has moved.</p>',
    '<p>This page has moved: <a href="/next">open the new page</a>.</p>', false],
];

describe('the page checks in the browser: a failing case and a passing look-alike', () => {
  it.each(CASES)('%s: %s', async (check, _name, failing, passing, whole = true) => {
    expect(await checksOf(failing, whole)).toContain(check);
    expect(await checksOf(passing, whole)).not.toContain(check);
  }, 120_000);

  it('says what it found, with the element and the WCAG reference', async () => {
    const [found] = await judge(page('<p><a href="/syllabus" style="outline:none">Syllabus</a></p>'));
    expect(found).toMatchObject({
      check: 'a11y.focus-not-visible',
      severity: 'error',
      count: 1,
      element: '<a href="/syllabus" style="outline:none">Syllabus',
      helpUrl: 'https://www.w3.org/WAI/WCAG22/Techniques/failures/F78',
    });
    expect(formatMessage(found!.message)).toBe(
      'An element shows no visible sign when the keyboard moves to it (e.g. <a href="/syllabus" style="outline:none">Syllabus): a keyboard user cannot see where they are (WCAG 2.4.7).',
    );
  }, 120_000);

  it('finds nothing on a clean page with links, an image, a table, a form and a video', async () => {
    const clean = page(`<h2>Welcome</h2><p>${LONG_TEXT}</p>
<p><img src="wetland.png" alt="A wetland at sunrise, with reeds and a heron"></p>
<p>Start with the <a href="/syllabus">course syllabus</a>, then the <a href="/home">course home page</a>.</p>
<table><caption>Schedule</caption><tr><th>Week</th><th>Topic</th></tr><tr><td>1</td><td>Ecosystems</td></tr></table>
<form><label>Your answer <input name="a"></label> <select aria-label="Week"><option>1</option></select> <button>Send</button></form>
<video controls src="stream.mp4"></video> <details><summary>Hint</summary>Look at page 12.</details>`);
    expect(await judge(clean)).toEqual([]);
  }, 120_000);

  it('judges each page alone while the pool\'s pages tab at once', async () => {
    const failing = page('<p><a href="/a" style="outline:none">A</a> <a href="/b">B</a></p>');
    const passing = page('<p><a href="/a">A</a> <a href="/b">B</a></p>');
    const verdicts = await Promise.all([failing, passing, failing, passing, failing, passing].map((html) => checksOf(html)));
    expect(verdicts).toEqual([['a11y.focus-not-visible'], [], ['a11y.focus-not-visible'], [], ['a11y.focus-not-visible'], []]);
  }, 120_000);

  it('tabs through the whole page and stops at its end', async () => {
    const outcome = await runner.run({ html: page('<a href="/1">One</a> <a href="/2">Two</a> <button>Three</button>'), url: new URL('/content/enforced/1-A/walk.html', origin), whole: true });
    expect(outcome.page?.keyboard).toMatchObject({ tabbable: 3, complete: true, trap: [], noVisibleFocus: [] });
    expect(outcome.page?.keyboard?.presses).toBeLessThanOrEqual(4);
  }, 120_000);
});
