// The two accessibility engines' verdicts as findings: the severity table (minor WCAG failures now
// count), one finding where both engines fail the same element under the same success criterion,
// and each engine's own findings otherwise.
import { describe, expect, it } from 'vitest';
import { topicPlace } from '../../../api/brightspace/places.ts';
import type { AxeOutcome, AxeRuleResult } from '../../../api/a11y/axe-rules.ts';
import type { IbmRuleResult } from '../../../api/a11y/ibm-rules.ts';
import { engineFindings, engineSeverity } from '../../../api/checks/engine-findings.ts';
import { checkTitle } from '../../../api/checks/catalogue.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';

const place = topicPlace({ ModuleId: 1, Title: 'Unit 1' }, { TopicId: 2, Title: 'Reading' });
const PAGE = 'https://school.example.com/d2l/le/content/1/viewContent/2/View';

const axeRule = (id: string, impact: string, keys: number[], help = 'Images must have alternative text'): AxeRuleResult => ({
  id, impact, help, helpUrl: `https://dequeuniversity.com/rules/axe/4.14/${id}`, count: keys.length,
  nodes: [{ html: '<img src="chart.png">', selector: 'img' }], keys,
});
const ibmRule = (id: string, sc: string, keys: number[], toolkitLevel = 1): IbmRuleResult => ({
  id, wcag: [{ sc, level: 'A' }], toolkitLevel, message: 'The image has neither an accessible name nor is marked as decorative or redundant',
  helpUrl: `https://able.ibm.com/rules/archives/latest/doc/en-US/${id}.html`, count: keys.length,
  nodes: keys.map((key) => ({ html: `<img src="${key}.png">`, selector: `img:nth-of-type(${key + 1})` })), keys,
});
const outcome = (violations: AxeRuleResult[], ibm?: IbmRuleResult[]): AxeOutcome => ({ violations, incomplete: [], errors: [], ...(ibm === undefined ? {} : { ibm }) });

describe('the severity table', () => {
  it('counts a minor failure of a WCAG criterion as a warning, and keeps a minor best practice a note', () => {
    expect(engineSeverity({ engine: 'axe', impact: 'minor', wcag: [{ sc: '1.3.1', level: 'A' }] })).toBe('warning');
    expect(engineSeverity({ engine: 'axe', impact: 'minor', wcag: [] })).toBe('info');
    expect(engineSeverity({ engine: 'axe', impact: 'serious', wcag: [] })).toBe('error');
    expect(engineSeverity({ engine: 'axe', impact: 'moderate', wcag: [{ sc: '1.4.3', level: 'AA' }] })).toBe('warning');
    expect(engineSeverity({ engine: 'ibm', toolkitLevel: 1, wcag: [{ sc: '1.1.1', level: 'A' }] })).toBe('error');
    expect(engineSeverity({ engine: 'ibm', toolkitLevel: 3, wcag: [{ sc: '3.1.2', level: 'AA' }] })).toBe('warning');
  });

  it('applies it to axe\'s findings: a minor WCAG failure is counted, not reported as a note', () => {
    // axe's "list" rule is filed under WCAG 1.3.1 (A); its impact is serious, but axe gives some of its rules "minor".
    const [found] = engineFindings(outcome([axeRule('list', 'minor', [0], 'Lists must only directly contain li')]), place, PAGE);
    expect(found?.severity).toBe('warning');
    const [bestPractice] = engineFindings(outcome([axeRule('empty-table-header', 'minor', [0], 'Table header text should not be empty')]), place, PAGE);
    expect(bestPractice?.severity).toBe('info');
  });
});

describe('one finding where both engines meet', () => {
  it('merges the same element under the same criterion into axe\'s finding, naming both sources', () => {
    const findings = engineFindings(outcome([axeRule('image-alt', 'critical', [0])], [ibmRule('img_alt_valid', '1.1.1', [0])]), place, PAGE);
    expect(findings.map((found) => found.check)).toEqual(['a11y.image-alt']);
    expect(formatMessage(findings[0]!.message)).toBe('Images must have alternative text (1 element). Found by axe-core and IBM Equal Access.');
    expect(findings[0]!.severity).toBe('error');
  });

  it('keeps IBM\'s other elements as a finding of its own, counting only those', () => {
    const findings = engineFindings(outcome([axeRule('image-alt', 'critical', [0])], [ibmRule('img_alt_valid', '1.1.1', [0, 3, 4])]), place, PAGE);
    expect(findings.map((found) => found.check)).toEqual(['a11y.image-alt', 'a11y.ibm.img_alt_valid']);
    const own = findings[1]!;
    expect(own.count).toBe(2);
    expect(own.element).toBe('<img src="3.png">');
    expect(own.selector).toBe('img:nth-of-type(4)');
    expect(own.helpUrl).toBe('https://able.ibm.com/rules/archives/latest/doc/en-US/img_alt_valid.html');
    expect(formatMessage(own.message)).toBe('The image has neither an accessible name nor is marked as decorative or redundant (2 elements). Found by IBM Equal Access.');
    expect(own.subject).toBe('ibm.img_alt_valid');
  });

  it('keeps two findings for the same element under different criteria, and for different elements', () => {
    const otherCriterion = engineFindings(outcome([axeRule('image-alt', 'critical', [0])], [ibmRule('img_alt_redundant', '2.4.4', [0])]), place, PAGE);
    expect(otherCriterion.map((found) => found.check)).toEqual(['a11y.image-alt', 'a11y.ibm.img_alt_redundant']);
    expect(formatMessage(otherCriterion[0]!.message)).toBe('Images must have alternative text (1 element).');
    const otherElement = engineFindings(outcome([axeRule('image-alt', 'critical', [0])], [ibmRule('img_alt_valid', '1.1.1', [1])]), place, PAGE);
    expect(otherElement.map((found) => found.check)).toEqual(['a11y.image-alt', 'a11y.ibm.img_alt_valid']);
  });

  it('takes the higher severity of the two, and names IBM\'s rules by IBM\'s own title', () => {
    const [merged] = engineFindings(outcome([axeRule('list', 'minor', [2], 'Lists must only directly contain li')], [ibmRule('list_children_valid', '1.3.1', [2], 1)]), place, PAGE);
    expect(merged?.severity).toBe('error');
    expect(checkTitle('a11y.ibm.img_alt_valid')).toBe('Images must have accessible names unless they are decorative or redundant');
  });
});
