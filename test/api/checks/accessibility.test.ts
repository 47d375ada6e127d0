import { afterAll, describe, expect, it } from 'vitest';
import { topicPlace } from '../../../api/checks/finding.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { axeFindings, checkAccessibility, severityOfImpact } from '../../../api/checks/accessibility.ts';
import { AxeRunner } from '../../../api/checks/axe-runner.ts';
import { parseTopic } from '../../../api/checks/html.ts';

const PAGE = new URL('https://school.example.com/content/enforced/5-A/page.html');
const PLACE = topicPlace({ ModuleId: 1, Title: 'M' }, { TopicId: 2, Title: 'T' });
const check = (html: string) => checkAccessibility(parseTopic(html, PAGE, 5), PLACE, PAGE, 5);

describe('a11y.alt-filename', () => {
  it.each([
    '<img src="photos/cell-diagram.png" alt="cell-diagram.png">',
    '<img src="x/IMG_2031.JPG" alt="IMG_2031">',
    '<img src="x/y.png" alt="DSC_0042">',
    '<img src="x/Lab%20Setup.jpeg" alt="Lab Setup">',
  ])('finds %s', (html) => {
    expect(check(html).map((f) => f.check)).toEqual(['a11y.alt-filename']);
  });

  it.each([
    '<img src="cell.png" alt="An animal cell with its organelles labelled">',
    '<img src="chart.png" alt="Growth of 2.5% per year, shown in chart.png form">',
    '<img src="divider.png" alt="">',
    '<img src="ab.png" alt="ab">', // too short to tell
  ])('leaves %s alone', (html) => {
    expect(check(html)).toEqual([]);
  });

  it('counts the images and quotes the first', () => {
    const [found] = check('<img src="a.png" alt="a.png"><img src="b.png" alt="b.png">');
    expect(found).toMatchObject({ severity: 'error', url: 'https://school.example.com/content/enforced/5-A/a.png' });
    expect(formatMessage(found!.message)).toBe('2 images have a file name as alt text (e.g. "a.png"). Describe what the image shows instead.');
  });
});

describe('a11y.link-text-generic', () => {
  it.each(['<a href="/x">click here</a>', '<a href="/x">Read more…</a>', '<a href="/x"> Here. </a>', '<a href="/x"><img src="i.png" alt="more"></a>'])('finds %s', (html) => {
    expect(check(html).map((f) => f.check)).toEqual(['a11y.link-text-generic']);
  });

  it.each([
    '<a href="/x">Read more about photosynthesis</a>',
    '<a href="/x" aria-label="Lab manual (PDF)">click here</a>',
    '<a name="here">here</a>', // an anchor target, not a link
    '<p>Click here to start.</p>',
  ])('leaves %s alone', (html) => {
    expect(check(html)).toEqual([]);
  });
});

describe('media.no-captions', () => {
  it('finds a video without a captions or subtitles track, one finding per video', () => {
    const findings = check('<video src="a.mp4"></video><video><source src="b.mp4"><track kind="chapters" src="c.vtt"></video>');
    expect(findings.map((f) => [f.check, f.url])).toEqual([
      ['media.no-captions', 'https://school.example.com/content/enforced/5-A/a.mp4'],
      ['media.no-captions', 'https://school.example.com/content/enforced/5-A/b.mp4'],
    ]);
  });

  it('leaves videos with captions or subtitles alone', () => {
    expect(check('<video src="a.mp4"><track kind="captions" src="a.vtt"></video><video src="b.mp4"><track src="b.vtt"></video>')).toEqual([]);
  });
});

describe('axe-core rules (a11y.<rule id>)', () => {
  // Generous: axe on a busy machine can take many times its usual fraction of a second.
  const runner = new AxeRunner({ timeoutMs: 100_000 });
  afterAll(() => runner.close());

  it('reports failing rules of a topic with their severity', async () => {
    const violations = await runner.run(`<!doctype html><html><head><title>x</title></head><body>
      <img src="chart.png"><a href="/next"></a><button></button><ul><div>not a list item</div></ul></body></html>`);
    expect(violations.map((v) => v.id).sort()).toEqual(['button-name', 'image-alt', 'link-name', 'list']);
    const findings = axeFindings(violations, PLACE, PAGE.href);
    const imageAlt = findings.find((f) => f.check === 'a11y.image-alt');
    expect(imageAlt).toMatchObject({ severity: 'error', element: '<img src="chart.png">', count: 1 });
    expect(formatMessage(imageAlt!.message)).toBe('Images must have alternative text (1 element).');
  }, 120_000);

  it('passes an accessible fragment and leaves page-level and browser-only rules out', async () => {
    // No <title>, no lang, no landmarks, light grey text: page-level and contrast rules would flag it.
    const violations = await runner.run('<h2>Week 1</h2><p style="color:#eee;background:#fff">Read <a href="/a">the week 1 notes</a>.</p><img src="cell.png" alt="A cell">');
    expect(violations).toEqual([]);
  }, 120_000);

  it('maps axe impact to our severities', () => {
    expect(['critical', 'serious', 'moderate', 'minor', null].map(severityOfImpact)).toEqual(['error', 'error', 'warning', 'info', 'info']);
  });

  it('fails one topic that takes too long and recovers for the next', async () => {
    const slow = new AxeRunner({ timeoutMs: 1 });
    await expect(slow.run('<p>x</p>')).rejects.toThrow('Accessibility checks did not finish within 0 s.');
    await slow.close();
  }, 120_000);
});
