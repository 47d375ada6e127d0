// The course testing protocol as pure functions: matching findings by check id and by family, at or
// above an item's least severity, within its allowance, dismissed findings left out; the score with
// unanswered manual items; answers that fit an item until it is reworded; the sign-off rule; and a
// protocol refused, with what to change, for every way it can be wrong.
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../api/errors.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { CHECKS } from '../../../api/checks/catalogue.ts';
import { compareWithHistory } from '../../../api/report/compare.ts';
import { DEFAULT_PROTOCOL } from '../../../api/protocol/default-protocol.ts';
import type { Protocol, ProtocolAnswer } from '../../../api/protocol/protocol-schema.ts';
import { itemKeyOf, matchesCheck, readinessScore, readyForLaunch, reanswered, scoreProtocol, withProtocol } from '../../../api/protocol/score-protocol.ts';
import { KNOWN_CHECKS, parseProtocolText, validateProtocol } from '../../../api/protocol/validate-protocol.ts';
import { sampleReport } from '../report/support/sample-report.ts';

const report = sampleReport();

const protocol: Protocol = {
  name: 'Demo College launch checklist',
  version: 3,
  items: [
    { id: 'links-work', title: 'Every link works', checks: ['link.broken', 'link.unreachable'], weight: 3 },
    { id: 'alt-text', title: 'Images have text alternatives', checks: ['a11y.image-alt', 'doc.image-no-alt'], weight: 2, allow: 0 },
    { id: 'contact', title: 'Instructor contact information is correct', manual: true, weight: 1 },
  ],
};

/** The English text of a refusal, or undefined when the protocol was accepted. */
function refusal(value: unknown): string | undefined {
  try {
    validateProtocol(value);
    return undefined;
  } catch (error) {
    if (!isAppError(error)) throw error;
    expect(error.code).toBe('invalid_input');
    return formatMessage(error.text);
  }
}

const answer = (itemId: string, status: ProtocolAnswer['status'], title: string, note?: string): ProtocolAnswer => ({
  itemId,
  itemKey: itemKeyOf({ id: itemId, title }),
  status,
  ...(note === undefined ? {} : { note }),
  by: 'qa@example.com',
  at: '2026-11-28T10:00:00.000Z',
});

describe('matching findings to items', () => {
  it('matches a check id exactly and a family by its trailing *', () => {
    expect(matchesCheck('link.broken', 'link.broken')).toBe(true);
    expect(matchesCheck('link.broken', 'link.broken-ish')).toBe(false);
    expect(matchesCheck('a11y.*', 'a11y.image-alt')).toBe(true);
    expect(matchesCheck('a11y.*', 'link.broken')).toBe(false);
    expect(matchesCheck('doc.pdf-*', 'doc.pdf-untagged')).toBe(true);
    expect(matchesCheck('doc.pdf-*', 'doc.no-title')).toBe(false);
  });

  it('fails an automated item on the open findings of its checks, and names them', () => {
    const scored = scoreProtocol(protocol, report.findings);
    const links = scored.items.find((item) => item.id === 'links-work')!;
    expect(links).toMatchObject({ kind: 'auto', status: 'fail', weight: 3 });
    const broken = report.findings.filter((finding) => finding.check === 'link.broken').map((finding) => finding.fingerprint);
    expect(broken).toHaveLength(4);
    expect(links.findings).toEqual(broken);
    expect(scored.items.find((item) => item.id === 'alt-text')).toMatchObject({ status: 'fail', findings: [report.findings.find((f) => f.check === 'a11y.image-alt')!.fingerprint] });
  });

  it('matches a family', () => {
    const scored = scoreProtocol({ name: 'p', version: 1, items: [{ id: 'links', title: 'Links', checks: ['link.*'] }] }, report.findings);
    // link.broken x4 and link.cross-course are errors; link.redirect and link.unverifiable are notes.
    expect(scored.items[0]!.findings).toHaveLength(5);
  });

  it('passes an item within its allowance, and fails it one finding past it', () => {
    const items = (allow: number) => scoreProtocol({ name: 'p', version: 1, items: [{ id: 'links', title: 'Links', checks: ['link.broken'], allow }] }, report.findings).items[0]!.status;
    expect(items(4)).toBe('pass');
    expect(items(3)).toBe('fail');
  });

  it('counts notes only when the item asks for them with minSeverity "info"', () => {
    const item = (minSeverity?: 'error' | 'warning' | 'info') =>
      scoreProtocol({ name: 'p', version: 1, items: [{ id: 'moved', title: 'No moved links', checks: ['link.redirect', 'structure.hidden'], ...(minSeverity === undefined ? {} : { minSeverity }) }] }, report.findings).items[0]!;
    expect(item().findings).toHaveLength(1); // the hidden topic, a warning
    expect(item('error')).toMatchObject({ status: 'pass', findings: [] });
    expect(item('info').findings).toHaveLength(2);
  });

  it('leaves dismissed findings out', () => {
    const altText = report.findings.find((finding) => finding.check === 'a11y.image-alt')!;
    const dismissed = compareWithHistory(report, { dismissals: [{ fingerprint: altText.fingerprint, by: 'qa@example.com', at: '2026-11-28T09:00:00.000Z', reason: 'decorative' }] });
    const scored = withProtocol(dismissed, protocol).protocol!;
    expect(scored.items.find((item) => item.id === 'alt-text')).toMatchObject({ status: 'pass', findings: [] });
  });
});

describe('the readiness score', () => {
  it('is round(100 x passed weight / decided weight), unanswered manual items left out', () => {
    const clean = scoreProtocol(protocol, report.findings.filter((finding) => finding.check !== 'link.broken'));
    // links-work passes (3), alt-text fails (2), contact needs a person: 3 / 5.
    expect(clean.items.map((item) => item.status)).toEqual(['pass', 'fail', 'needs-person']);
    expect(clean.score).toBe(60);
  });

  it('counts an answered manual item, and leaves one not applicable out of both sides', () => {
    const findings = report.findings.filter((finding) => finding.check !== 'link.broken');
    expect(scoreProtocol(protocol, findings, [answer('contact', 'pass', protocol.items[2]!.title)]).score).toBe(67); // 4 / 6
    expect(scoreProtocol(protocol, findings, [answer('contact', 'fail', protocol.items[2]!.title)]).score).toBe(50); // 3 / 6
    expect(scoreProtocol(protocol, findings, [answer('contact', 'n/a', protocol.items[2]!.title)]).score).toBe(60);
  });

  it('is null while nothing is decided', () => {
    expect(scoreProtocol({ name: 'p', version: 1, items: [{ id: 'a', title: 'A', manual: true }] }, []).score).toBeNull();
    expect(readinessScore([])).toBeNull();
  });

  it('rounds half up and takes fractional weights', () => {
    expect(readinessScore([{ status: 'pass', weight: 1 }, { status: 'fail', weight: 1 }])).toBe(50);
    expect(readinessScore([{ status: 'pass', weight: 0.5 }, { status: 'fail', weight: 1.5 }, { status: 'needs-person', weight: 9 }])).toBe(25);
    expect(readinessScore([{ status: 'pass', weight: 1 }, { status: 'fail', weight: 7 }])).toBe(13); // 12.5
  });
});

describe('answers to manual items', () => {
  it('are shown with who, when and the note', () => {
    const scored = scoreProtocol(protocol, [], [answer('contact', 'pass', protocol.items[2]!.title, 'Checked with the dean')]);
    expect(scored.items[2]).toMatchObject({ kind: 'manual', status: 'pass', answer: { status: 'pass', note: 'Checked with the dean', by: 'qa@example.com', at: '2026-11-28T10:00:00.000Z' } });
  });

  it('no longer apply once the item is reworded', () => {
    const reworded: Protocol = { ...protocol, items: [protocol.items[0]!, protocol.items[1]!, { ...protocol.items[2]!, title: 'Instructor contact information and office hours are correct' }] };
    const scored = scoreProtocol(reworded, [], [answer('contact', 'pass', protocol.items[2]!.title)]);
    expect(scored.items[2]).toMatchObject({ status: 'needs-person' });
    expect(scored.items[2]!.answer).toBeUndefined();
  });

  it('re-decide a finished run without changing its automated items', () => {
    const scored = scoreProtocol(protocol, []);
    expect(scored.score).toBe(100);
    const later = reanswered(scored, [answer('contact', 'fail', protocol.items[2]!.title)]);
    expect(later.items.map((item) => item.status)).toEqual(['pass', 'pass', 'fail']);
    expect(later.score).toBe(83);
  });
});

describe('ready for launch', () => {
  it('is refused while an item fails or needs a person, and allowed once all pass or do not apply', () => {
    const scored = scoreProtocol(protocol, []);
    expect(readyForLaunch(scored)).toBe(false); // contact needs a person
    expect(readyForLaunch(reanswered(scored, [answer('contact', 'fail', protocol.items[2]!.title)]))).toBe(false);
    expect(readyForLaunch(reanswered(scored, [answer('contact', 'n/a', protocol.items[2]!.title)]))).toBe(true);
    expect(readyForLaunch(scoreProtocol(protocol, report.findings, [answer('contact', 'pass', protocol.items[2]!.title)]))).toBe(false); // links fail
  });
});

describe('validating a protocol', () => {
  it('accepts the issue example and keeps only what a protocol holds', () => {
    expect(validateProtocol({ ...protocol, extra: true })).toEqual(protocol);
    expect(parseProtocolText(JSON.stringify(protocol))).toEqual(protocol);
  });

  it('refuses a check id that does not exist, naming it', () => {
    const text = refusal({ ...protocol, items: [{ id: 'links', title: 'Links', checks: ['link.broken', 'link.brokn'] }] });
    expect(text).toContain('"link.brokn"');
    expect(text).toContain('Item "links"');
    expect(refusal({ ...protocol, items: [{ id: 'x', title: 'X', checks: ['nothing.*'] }] })).toContain('"nothing.*"');
    // axe-core's rules are check ids too.
    expect(refusal({ ...protocol, items: [{ id: 'x', title: 'X', checks: ['a11y.color-contrast', 'a11y.*', 'doc.pdf-*'] }] })).toBeUndefined();
  });

  it('refuses duplicate ids, weights that are not positive numbers, bad allowances and severities', () => {
    expect(refusal({ ...protocol, items: [protocol.items[0], { ...protocol.items[1], id: 'links-work' }] })).toContain('Two items have the id "links-work"');
    for (const weight of [0, -1, '3', null, Number.NaN]) expect(refusal({ ...protocol, items: [{ ...protocol.items[0], weight }] })).toContain('weight must be a number greater than 0');
    expect(refusal({ ...protocol, items: [{ ...protocol.items[0], allow: 1.5 }] })).toContain('allow must be a whole number');
    expect(refusal({ ...protocol, items: [{ ...protocol.items[0], minSeverity: 'fatal' }] })).toContain('minSeverity must be');
  });

  it('refuses more than 200 items, or more than 64 KiB', () => {
    const items = Array.from({ length: 201 }, (_, index) => ({ id: `item-${index}`, title: `Item ${index}`, manual: true }));
    expect(refusal({ name: 'Big', version: 1, items })).toContain('The protocol has 201 items; at most 200 are allowed');
    expect(refusal({ name: 'Big', version: 1, items: items.slice(0, 200) })).toBeUndefined();
    const long = Array.from({ length: 200 }, (_, index) => ({ id: `item-${index}`, title: 'x'.repeat(299), manual: true }));
    expect(refusal({ name: 'Long', version: 1, items: long })).toContain('larger than 64 KiB');
  });

  it('refuses hidden control characters, naming the field and the character', () => {
    expect(refusal({ ...protocol, items: [{ ...protocol.items[0], title: 'Every\u0007 link' }] })).toContain('Item "links-work": its title holds a hidden character (U+0007)');
    expect(refusal({ ...protocol, name: 'Launch\u202echecklist' })).toContain('The protocol: its name holds a hidden character (U+202E)');
  });

  it('refuses manual items with checks and automated items without, and what is not a protocol', () => {
    expect(refusal({ ...protocol, items: [{ id: 'a', title: 'A', manual: true, checks: ['link.broken'] }] })).toContain('Remove its checks');
    expect(refusal({ ...protocol, items: [{ id: 'a', title: 'A' }] })).toContain('list 1 to 100 check ids');
    expect(refusal([])).toContain('This is not a protocol');
    expect(refusal({ name: '', version: 0, items: [] })).toMatch(/name must be .*version must be .*items must be/s);
    expect(() => parseProtocolText('{ not json')).toThrow(/not a protocol/);
  });
});

describe('the default protocol', () => {
  it('is valid, and covers every check of the catalogue and every axe rule', () => {
    expect(validateProtocol(DEFAULT_PROTOCOL)).toEqual(DEFAULT_PROTOCOL);
    const patterns = DEFAULT_PROTOCOL.items.flatMap((item) => item.checks ?? []);
    // limit.findings is no defect of its own: it counts the findings of a check past the cap, which
    // the check's own item already fails on.
    const defects = [...Object.keys(CHECKS), ...KNOWN_CHECKS].filter((check) => !check.startsWith('limit.'));
    for (const check of defects) expect(patterns.some((pattern) => matchesCheck(pattern, check)), check).toBe(true);
    expect(DEFAULT_PROTOCOL.items.some((item) => item.manual === true)).toBe(true);
  });
});
