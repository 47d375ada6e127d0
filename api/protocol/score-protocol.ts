// The run scored against a protocol, as pure functions: which open findings an automated item counts
// (by check id or family, at or above its least severity; dismissed findings are no longer among the
// report's findings), each item's status, manual items by the answers that still fit them, and the
// readiness score round(100 x weight passed / weight decided). Items not applicable count neither way.
import { createHash } from 'node:crypto';
import type { Severity } from '../checks/finding.ts';
import type { Report, ReportProtocol, ReportProtocolItem } from '../report/model.ts';
import { weightOf, type Protocol, type ProtocolAnswer, type ProtocolItem } from './protocol-schema.ts';

const SEVERITY_RANK: Record<Severity, number> = { error: 2, warning: 1, info: 0 };

/** A check id against an item's pattern: the same id, or a family by its trailing `*`. */
export function matchesCheck(pattern: string, check: string): boolean {
  return pattern.endsWith('*') ? check.startsWith(pattern.slice(0, -1)) : pattern === check;
}

/**
 * What an answer was given to: the item's id and wording. An answer carries to the next run only
 * while the item still says the same; reworded, it asks a person again.
 */
export function itemKeyOf(item: Pick<ProtocolItem, 'id' | 'title'>): string {
  return createHash('sha256').update(JSON.stringify([item.id, item.title.trim()])).digest('hex').slice(0, 20);
}

export interface ScoredFinding {
  check: string;
  severity: Severity;
  fingerprint: string;
}

function scoreItem(item: ProtocolItem, findings: readonly ScoredFinding[], answers: ReadonlyMap<string, ProtocolAnswer>): ReportProtocolItem {
  const weight = weightOf(item);
  if (item.manual === true) {
    const answer = answers.get(item.id);
    const fits = answer !== undefined && answer.itemKey === itemKeyOf(item);
    return {
      id: item.id,
      title: item.title,
      kind: 'manual',
      status: fits ? answer.status : 'needs-person',
      weight,
      findings: [],
      ...(fits ? { answer: { status: answer.status, ...(answer.note === undefined ? {} : { note: answer.note }), by: answer.by, at: answer.at } } : {}),
    };
  }
  const checks = item.checks ?? [];
  const allow = item.allow ?? 0;
  const minSeverity = item.minSeverity ?? 'warning';
  const counted = findings.filter((finding) => SEVERITY_RANK[finding.severity] >= SEVERITY_RANK[minSeverity] && checks.some((pattern) => matchesCheck(pattern, finding.check)));
  return {
    id: item.id,
    title: item.title,
    kind: 'auto',
    status: counted.length <= allow ? 'pass' : 'fail',
    weight,
    findings: counted.map((finding) => finding.fingerprint),
    checks,
    allow,
    minSeverity,
  };
}

/** round(100 x Σ weight passed / Σ weight decided); null when nothing is decided. */
export function readinessScore(items: readonly Pick<ReportProtocolItem, 'status' | 'weight'>[]): number | null {
  let passed = 0;
  let decided = 0;
  for (const item of items) {
    if (item.status === 'pass' || item.status === 'fail') decided += item.weight;
    if (item.status === 'pass') passed += item.weight;
  }
  return decided === 0 ? null : Math.round((100 * passed) / decided);
}

/** The protocol scored on a run's open findings and the answers given to its manual items. */
export function scoreProtocol(protocol: Protocol, findings: readonly ScoredFinding[], answers: readonly ProtocolAnswer[] = []): ReportProtocol {
  const byItem = new Map(answers.map((answer) => [answer.itemId, answer]));
  const items = protocol.items.map((item) => scoreItem(item, findings, byItem));
  return { name: protocol.name, version: protocol.version, score: readinessScore(items), items };
}

/** The report with its protocol section: scored after the comparison, so dismissed findings are out. */
export function withProtocol(report: Report, protocol: Protocol, answers: readonly ProtocolAnswer[] = []): Report {
  return { ...report, protocol: scoreProtocol(protocol, report.findings, answers) };
}

/** Whether a run may be marked ready for launch: every item decided, none failed. */
export function readyForLaunch(protocol: Pick<ReportProtocol, 'items'>): boolean {
  return protocol.items.every((item) => item.status === 'pass' || item.status === 'n/a');
}

/**
 * A report's protocol with answers given since it was written (the Sign-off list of a finished run):
 * the manual items re-decided, the score again. Automated items stay as the run found them.
 */
export function reanswered(protocol: ReportProtocol, answers: readonly ProtocolAnswer[]): ReportProtocol {
  const byItem = new Map(answers.map((answer) => [answer.itemId, answer]));
  const items = protocol.items.map((item): ReportProtocolItem => {
    if (item.kind !== 'manual') return item;
    const answer = byItem.get(item.id);
    if (answer === undefined || answer.itemKey !== itemKeyOf(item)) return item;
    return { ...item, status: answer.status, answer: { status: answer.status, ...(answer.note === undefined ? {} : { note: answer.note }), by: answer.by, at: answer.at } };
  });
  return { ...protocol, items, score: readinessScore(items) };
}
