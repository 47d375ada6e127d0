// What changed since the last run: a new report is compared with the caller's previous successful
// run of the same course (its JSON twin as written) and with what they dismissed for the course.
// Each finding becomes `new` or `open`; findings of the previous run this one no longer finds are
// listed as fixed; dismissed findings leave the list and every count for a section of their own.
// Only places both runs looked at are compared: a module the previous run did not test has nothing
// "new" in it, and a module this run did not test has nothing "fixed".
import type { Severity } from '../checks/finding.ts';
import type { ItemType } from '../brightspace/places.ts';
import { ITEM_TYPES } from '../brightspace/places.ts';
import type { CourseScope } from '../brightspace/course-scopes.ts';
import type { Dismissal, Report, ReportDismissedFinding, ReportFinding } from './model.ts';
import { isRecord } from '../json.ts';

export interface ComparisonBaseline {
  /** The caller's previous successful run of this course: its report name and JSON twin, parsed. */
  previous?: { filename: string; report: unknown };
  /** What the caller dismissed for this course. */
  dismissals: readonly Dismissal[];
}

/** The part of a report a comparison reads: its findings and where it looked. */
interface RunScope {
  modules: readonly { moduleId: number }[];
  scopes: readonly string[];
  notScanned: readonly { itemType: ItemType; itemId: number | null }[];
}

interface PreviousRun extends RunScope {
  startedAt: string;
  finishedAt: string;
  findings: ReportFinding[];
  /** Fingerprints it had set aside as dismissed: known then, even if not in its findings. */
  dismissed: Set<string>;
}

// Course-wide items belong to the scope that reads them (run-tests SCOPES).
const SCOPE_OF_ITEM: Partial<Record<ItemType, CourseScope>> = {
  assignment: 'assignments',
  quiz: 'quizzes',
  'discussion-forum': 'discussions',
  'discussion-topic': 'discussions',
  announcement: 'announcements',
  'grade-item': 'gradebook',
};

type Place = Pick<ReportFinding, 'moduleId' | 'itemType' | 'itemId'>;

const placeKey = (place: { itemType: string; itemId: number | null }) => `${place.itemType}:${place.itemId ?? ''}`;

/** Whether a run looked at a place: its module was tested (or its scope read) and it was scanned. */
function looked(run: RunScope): (place: Place) => boolean {
  const modules = new Set(run.modules.map((module) => module.moduleId));
  const notScanned = new Set(run.notScanned.map(placeKey));
  return (place) => {
    if (notScanned.has(placeKey(place))) return false;
    if (place.moduleId !== null) return modules.has(place.moduleId);
    const scope = SCOPE_OF_ITEM[place.itemType];
    return scope === undefined || run.scopes.includes(scope);
  };
}

export function compareWithHistory(report: Report, baseline: ComparisonBaseline): Report {
  const dismissals = new Map(baseline.dismissals.map((dismissal) => [dismissal.fingerprint, dismissal]));
  const previous = baseline.previous === undefined ? undefined : previousRunOf(baseline.previous.report);
  const previousLooked = previous === undefined ? undefined : looked(previous);
  const previousKnown = new Set([...(previous?.findings ?? []).map((finding) => finding.fingerprint), ...(previous?.dismissed ?? [])]);

  const findings: ReportFinding[] = [];
  const dismissed: ReportDismissedFinding[] = [];
  for (const { status: _status, ...finding } of report.findings) {
    const dismissal = dismissals.get(finding.fingerprint);
    if (dismissal !== undefined) {
      const { fingerprint: _fingerprint, ...why } = dismissal;
      dismissed.push({ ...finding, dismissal: why });
    } else if (previous === undefined || !previousLooked!(finding)) {
      findings.push(finding);
    } else {
      findings.push({ ...finding, status: previousKnown.has(finding.fingerprint) ? 'open' : 'new' });
    }
  }

  const found = new Set(report.findings.map((finding) => finding.fingerprint));
  const nowLooked = looked(report);
  const fixed = (previous?.findings ?? []).filter((finding) => !found.has(finding.fingerprint) && nowLooked(finding));

  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  const totals: Report['totals'] = {
    ...report.totals,
    findings: counts,
    review: findings.filter((finding) => finding.review === true).length,
  };
  delete totals.comparison;
  if (previous !== undefined) {
    totals.comparison = { new: findings.filter((finding) => finding.status === 'new').length, fixed: fixed.length, dismissed: dismissed.length };
  }

  return {
    ...report,
    totals,
    findings,
    comparison: {
      previous: previous === undefined ? null : { filename: baseline.previous!.filename, startedAt: previous.startedAt, finishedAt: previous.finishedAt },
      fixed,
    },
    dismissed,
  };
}

// --- Reading the previous report back ------------------------------------------------------------
// The JSON twin is our own file, but it may come from an older version or be damaged: only what
// has the expected shape is used, and a report that cannot be read is no baseline at all.

const SEVERITIES: readonly string[] = ['error', 'warning', 'info'];
const isIdOrNull = (value: unknown): value is number | null => value === null || (typeof value === 'number' && Number.isSafeInteger(value));
const isItemType = (value: unknown): value is ItemType => (ITEM_TYPES as readonly unknown[]).includes(value);

const OPTIONAL_TEXT = ['linkText', 'element', 'selector', 'helpUrl', 'subject', 'document'] as const;
const OPTIONAL_NUMBER = ['page', 'count'] as const;

function findingOf(value: unknown): ReportFinding | undefined {
  if (!isRecord(value)) return undefined;
  const { check, severity, fingerprint, message, url, itemType, moduleId, topicId, itemId, moduleTitle, topicTitle, itemTitle } = value;
  if (typeof check !== 'string' || typeof severity !== 'string' || !SEVERITIES.includes(severity)) return undefined;
  if (typeof fingerprint !== 'string' || fingerprint === '' || typeof message !== 'string') return undefined;
  if (!isItemType(itemType) || !isIdOrNull(moduleId) || !isIdOrNull(topicId) || !isIdOrNull(itemId)) return undefined;
  const text = (field: unknown) => (typeof field === 'string' ? field : null);
  const finding: ReportFinding = {
    check,
    severity: severity as Severity,
    moduleId,
    moduleTitle: text(moduleTitle),
    topicId,
    topicTitle: text(topicTitle),
    itemType,
    itemId,
    itemTitle: text(itemTitle),
    url: text(url),
    message,
    fingerprint,
  };
  for (const field of OPTIONAL_TEXT) if (typeof value[field] === 'string') finding[field] = value[field];
  for (const field of OPTIONAL_NUMBER) if (typeof value[field] === 'number') finding[field] = value[field];
  if (value.review === true) finding.review = true;
  return finding;
}

function previousRunOf(value: unknown): PreviousRun | undefined {
  if (!isRecord(value) || !Array.isArray(value.findings) || !Array.isArray(value.modules)) return undefined;
  if (typeof value.startedAt !== 'string' || typeof value.finishedAt !== 'string') return undefined;
  const modules = value.modules.filter((module): module is { moduleId: number } => isRecord(module) && typeof module.moduleId === 'number');
  const scopes = Array.isArray(value.scopes) ? value.scopes.filter((scope): scope is string => typeof scope === 'string') : [];
  const notScanned = (Array.isArray(value.notScanned) ? value.notScanned : []).flatMap((entry) =>
    isRecord(entry) && isItemType(entry.itemType) && isIdOrNull(entry.itemId) ? [{ itemType: entry.itemType, itemId: entry.itemId }] : [],
  );
  const findings = value.findings.flatMap((entry) => findingOf(entry) ?? []);
  const dismissed = new Set(
    (Array.isArray(value.dismissed) ? value.dismissed : []).flatMap((entry) => (isRecord(entry) && typeof entry.fingerprint === 'string' ? [entry.fingerprint] : [])),
  );
  return { startedAt: value.startedAt, finishedAt: value.finishedAt, modules, scopes, notScanned, findings, dismissed };
}
