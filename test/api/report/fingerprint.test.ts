// A finding's fingerprint (report/build-report.ts) through the real checks: the same for the same
// problem whatever else changes on the page, different as soon as the problem itself is another.
import { describe, expect, it } from 'vitest';
import type { SelectedModule } from '../../../api/brightspace/toc.ts';
import { axeFindings, checkAccessibility } from '../../../api/checks/accessibility.ts';
import type { AxeRuleResult } from '../../../api/a11y/axe-rules.ts';
import { checkContent } from '../../../api/checks/content.ts';
import { type Finding } from '../../../api/checks/finding.ts';
import { topicPlace, type ItemPlace } from '../../../api/brightspace/places.ts';
import { parseTopic } from '../../../api/extract/html.ts';
import { probeFindings, staticLinkFindings } from '../../../api/checks/links.ts';
import type { LinkProbe } from '../../../api/net/link-checker.ts';
import { checkStructure } from '../../../api/checks/structure.ts';
import { msg } from '../../../api/i18n/messages.ts';
import { buildReport, fingerprintOf } from '../../../api/report/build-report.ts';

const SITE = new URL('https://school.example.com');
const PAGE = new URL('https://school.example.com/content/enforced/6606-BIO/week1.html');
const PLACE = topicPlace({ ModuleId: 1, Title: 'Week 1' }, { TopicId: 11, Title: 'Cells' });

const broken: LinkProbe = { outcome: 'broken', status: 404, movedTo: null, detail: msg('finding.link.not-found', { status: 404 }) };
const fine: LinkProbe = { outcome: 'ok', status: 200, movedTo: null, detail: msg('finding.link.ok') };

/** Every finding the item-level checks make of one page; links whose address says "gone" are broken. */
function findingsOf(html: string, violations: AxeRuleResult[] = [], place: ItemPlace = PLACE): Finding[] {
  const topic = parseTopic(html, PAGE, 6606);
  const findings = [...checkContent(topic, place, PAGE.href), ...checkAccessibility(topic, place, PAGE, 6606), ...axeFindings({ violations, incomplete: [] }, place, PAGE.href)];
  for (const link of topic.links) {
    findings.push(...staticLinkFindings(link, place, SITE, 6606));
    if (link.url !== null) findings.push(...probeFindings({ ...link, url: link.url }, link.url.includes('gone') ? broken : fine, place));
  }
  return findings;
}

// Each link check once per address; every other check once per item.
const byCheck = (findings: Finding[]) =>
  Object.fromEntries(findings.map((finding) => [finding.check.startsWith('link.') ? `${finding.check} ${finding.url ?? ''}` : finding.check, fingerprintOf(finding)]));

const contrast: AxeRuleResult = {
  id: 'color-contrast',
  impact: 'serious',
  help: 'Elements must meet minimum color contrast ratio thresholds.',
  helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/color-contrast',
  count: 1,
  nodes: [{ html: '<p style="color:#aaa">Note</p>', selector: 'p:nth-child(3)' }],
};

const original = `
  <h2>Cells</h2>
  <p>Read <a href="https://journal.example.org/gone">the article</a> and <a href="http://library.example.org/cells">the library guide</a>.</p>
  <p>TODO: add the lab sheet.</p>
  <img src="images/IMG_2031.jpg" alt="IMG_2031">
  <p><a href="/d2l/le/content/7707/viewContent/5/View">Last term's notes</a> and <a href="notes.html">click here</a>.</p>
  <video src="media/mitosis.mp4"></video>`;

describe('a finding’s fingerprint', () => {
  it('stays the same under unrelated edits of the page', () => {
    const before = byCheck(findingsOf(original, [contrast]));
    expect(Object.keys(before).length).toBeGreaterThanOrEqual(8);

    // New paragraphs, reordered content, other wording around the links, a new clean link, a
    // second image with a file name as alt text, the placeholder reworded.
    const edited = `
      <h2>Cells and tissues</h2>
      <p>Start with <a href="https://example.org/welcome">the welcome page</a>.</p>
      <video src="media/mitosis.mp4"></video>
      <p><a href="notes.html">click here</a> for notes, or <a href="/d2l/le/content/7707/viewContent/5/View">see last term</a>.</p>
      <img src="images/DSC_0042.jpg" alt="DSC_0042">
      <img src="images/IMG_2031.jpg" alt="IMG_2031">
      <p>The <a href="http://library.example.org/cells">library guide</a> and, below, <a href="https://journal.example.org/gone">an article</a>.</p>
      <p>TBD: the lab sheet.</p>`;
    const after = byCheck(findingsOf(edited, [{ ...contrast, nodes: [{ html: '<span style="color:#bbb">Tip</span>', selector: 'p:nth-child(5) > span' }], count: 3 }]));
    expect(after).toEqual(before);
  });

  it('changes when the finding is another: another address, another check, another item', () => {
    const before = findingsOf(original);
    const brokenLink = before.find((finding) => finding.check === 'link.broken')!;

    const otherAddress = findingsOf(original.replace('https://journal.example.org/gone', 'https://journal.example.org/gone-too')).find((finding) => finding.check === 'link.broken')!;
    expect(fingerprintOf(otherAddress)).not.toBe(fingerprintOf(brokenLink));

    const unreachable = { ...brokenLink, check: 'link.unreachable' };
    expect(fingerprintOf(unreachable)).not.toBe(fingerprintOf(brokenLink));

    const otherTopic = findingsOf(original, [], topicPlace({ ModuleId: 1, Title: 'Week 1' }, { TopicId: 12, Title: 'Cells' })).find((finding) => finding.check === 'link.broken')!;
    expect(fingerprintOf(otherTopic)).not.toBe(fingerprintOf(brokenLink));

    const [contrastFinding] = findingsOf(original, [contrast]).filter((finding) => finding.check === 'a11y.color-contrast');
    const [otherRule] = findingsOf(original, [{ ...contrast, id: 'image-alt' }]).filter((finding) => finding.check === 'a11y.image-alt');
    expect(fingerprintOf(otherRule!)).not.toBe(fingerprintOf(contrastFinding!));
  });

  it('does not depend on the wording, the language or the item’s title', () => {
    const [finding] = findingsOf('<p>Read <a href="https://journal.example.org/gone">this</a>.</p>').filter((item) => item.check === 'link.broken');
    const renamed = { ...finding!, topicTitle: 'Cells (new title)', itemTitle: 'Cells (new title)', linkText: 'that', message: msg('finding.link.not-found', { status: 410 }) };
    expect(fingerprintOf(renamed)).toBe(fingerprintOf(finding!));
  });

  it('is the same for a topic moved to another module', () => {
    const [finding] = findingsOf('<p>lorem ipsum</p>');
    const moved = findingsOf('<p>lorem ipsum</p>', [], topicPlace({ ModuleId: 2, Title: 'Week 2' }, { TopicId: 11, Title: 'Cells' }))[0]!;
    expect(fingerprintOf(moved)).toBe(fingerprintOf(finding!));
  });

  it('gives structure findings a subject of their own, so dates and visibility of one item stay apart', () => {
    const selected: SelectedModule[] = [
      {
        module: { ModuleId: 1, Title: 'Week 1', IsHidden: true, EndDate: '2020-01-01T00:00:00.000Z', StartDate: '2020-02-01T00:00:00.000Z' },
        depth: 0,
        parentModuleId: null,
        topics: [],
        children: [],
      },
    ];
    const findings = checkStructure(selected, new Date('2026-05-01T00:00:00.000Z'));
    expect(findings.map((finding) => finding.check).sort()).toEqual(['structure.date-order', 'structure.empty-module', 'structure.hidden', 'structure.past-date']);
    expect(findings.every((finding) => typeof finding.subject === 'string' && finding.subject !== '')).toBe(true);
    expect(new Set(findings.map(fingerprintOf)).size).toBe(findings.length);
  });

  it('is distinct for two findings the checks cannot tell apart, and stable from run to run', () => {
    const html = '<video></video><p>between</p><video></video>';
    const report = () =>
      buildReport({
        client: 'Acme',
        siteUrl: SITE.href,
        orgUnitId: 6606,
        selected: [{ module: { ModuleId: 1, Title: 'Week 1' }, depth: 0, parentModuleId: null, topics: [{ TopicId: 11, Title: 'Cells' }], children: [] }],
        viewUrl: () => PAGE.href,
        findings: findingsOf(html),
        notScanned: [],
        scanned: 1,
        links: 0,
        startedAt: new Date('2026-05-01T10:00:00Z'),
        finishedAt: new Date('2026-05-01T10:01:00Z'),
      });
    const first = report().findings.filter((finding) => finding.check === 'media.no-captions');
    expect(first).toHaveLength(2);
    expect(first[0]!.fingerprint).not.toBe(first[1]!.fingerprint);
    expect(report().findings.map((finding) => finding.fingerprint)).toEqual(report().findings.map((finding) => finding.fingerprint));
    expect(first.every((finding) => /^[0-9a-f]{20}$/.test(finding.fingerprint))).toBe(true);
  });
});
