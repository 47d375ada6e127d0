// The verdicts of the two accessibility engines (axe-core, and IBM's Equal Access engine in the
// browser) as findings: one finding where both fail the same element under the same WCAG success
// criterion (both sources named), and each engine's own otherwise. Severities follow one table, by
// WCAG level and impact (docs/accessibility-engines.md).
import type { ItemPlace } from '../brightspace/places.ts';
import type { AxeOutcome, AxeRuleResult } from '../a11y/axe-rules.ts';
import { wcagOfAxeRule } from '../a11y/axe-rules.ts';
import { IBM_ENGINE, type IbmRuleResult, type WcagCriterion } from '../a11y/ibm-rules.ts';
import { msg } from '../i18n/messages.ts';
import { axeFindings } from './accessibility.ts';
import type { Finding, Severity } from './finding.ts';

/**
 * The severity of an engine's failure (the table in docs/accessibility-engines.md):
 *
 * | engine | what failed                                   | severity |
 * |--------|-----------------------------------------------|----------|
 * | axe    | impact critical or serious                    | error    |
 * | axe    | impact moderate                               | warning  |
 * | axe    | impact minor, a WCAG A or AA criterion        | warning  |
 * | axe    | impact minor, a best practice only            | info     |
 * | IBM    | a WCAG A or AA requirement, IBM priority 1-2  | error    |
 * | IBM    | a WCAG A or AA requirement, IBM priority 3-4  | warning  |
 *
 * A minor failure of a WCAG criterion still fails WCAG, so it is counted (a warning), where a
 * minor best practice stays a note. IBM's priority (its "toolkit level") plays the part of axe's
 * impact. One finding of both engines takes the higher of the two.
 */
export function engineSeverity(source: { engine: 'axe'; impact: string | null; wcag: WcagCriterion[] } | { engine: 'ibm'; toolkitLevel: number; wcag: WcagCriterion[] }): Severity {
  const wcagAorAA = source.wcag.some((criterion) => criterion.level === 'A' || criterion.level === 'AA');
  if (source.engine === 'ibm') return !wcagAorAA ? 'info' : source.toolkitLevel <= 2 ? 'error' : 'warning';
  if (source.impact === 'critical' || source.impact === 'serious') return 'error';
  if (source.impact === 'moderate') return 'warning';
  if (source.impact === 'minor' && wcagAorAA) return 'warning';
  return 'info';
}

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };
const higher = (a: Severity, b: Severity): Severity => (RANK[a] >= RANK[b] ? a : b);

const sharesCriterion = (a: WcagCriterion[], b: WcagCriterion[]) => a.some((one) => b.some((other) => other.sc === one.sc));

/** Both engines' verdicts on an item as findings: failures, merged where they meet, and axe's "Needs review". */
export function engineFindings(outcome: Pick<AxeOutcome, 'violations' | 'incomplete' | 'ibm'>, place: ItemPlace, pageUrl: string | null): Finding[] {
  const findings = axeFindings(outcome, place, pageUrl);
  const ibm = outcome.ibm ?? [];
  // IBM's elements already named by an axe failure under the same criterion, per IBM rule.
  const covered = new Map<IbmRuleResult, Set<number>>();
  outcome.violations.forEach((result: AxeRuleResult, index) => {
    const found = findings[index]!;
    const wcag = wcagOfAxeRule(result.id);
    found.severity = engineSeverity({ engine: 'axe', impact: result.impact, wcag });
    const axeKeys = new Set((result.keys ?? []).filter((key) => key >= 0));
    if (axeKeys.size === 0) return;
    let confirmed = false;
    for (const other of ibm) {
      if (!sharesCriterion(wcag, other.wcag)) continue;
      other.keys.forEach((key, node) => {
        if (!axeKeys.has(key)) return;
        confirmed = true;
        found.severity = higher(found.severity, engineSeverity({ engine: 'ibm', toolkitLevel: other.toolkitLevel, wcag: other.wcag }));
        const nodes = covered.get(other) ?? new Set<number>();
        nodes.add(node);
        covered.set(other, nodes);
      });
    }
    if (confirmed) found.message = msg('finding.a11y.both', { help: result.help.replace(/\.$/, ''), count: result.count, engine: IBM_ENGINE });
  });
  for (const result of ibm) {
    const done = covered.get(result) ?? new Set<number>();
    const left = result.keys.map((_, node) => node).filter((node) => !done.has(node));
    if (left.length === 0) continue;
    const example = result.nodes[left[0]!];
    const found: Finding = {
      check: `a11y.ibm.${result.id}`,
      severity: engineSeverity({ engine: 'ibm', toolkitLevel: result.toolkitLevel, wcag: result.wcag }),
      ...place,
      url: pageUrl,
      message: msg('finding.a11y.ibm', { help: result.message.replace(/\.$/, ''), count: left.length, engine: IBM_ENGINE }),
      count: left.length,
      subject: `ibm.${result.id}`,
    };
    if (example !== undefined) {
      found.element = example.html;
      found.selector = example.selector;
    }
    if (result.helpUrl !== '') found.helpUrl = result.helpUrl;
    findings.push(found);
  }
  return findings;
}
