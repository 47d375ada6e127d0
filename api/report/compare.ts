// What changed since the last run: a new report is compared with the caller's previous successful
// run of the same course (its JSON twin as written) and with what they dismissed for the course.
// Dismissed findings leave the list and every count for a section of their own.
//
// Only places both runs read are compared: each module and each course-wide part (the gradebook,
// the overview...) a run read is a place (report/coverage.ts), and a finding lies in its module and
// the course-wide part that read it. A place this run read but the previous run did not is compared
// with the most recent earlier run that did read it: each report carries forward what earlier runs
// knew of the places it left out (`comparison.carried`), so a one-module run between two whole-course
// runs neither calls the course-wide findings fixed nor makes the next whole run call them new.
// Fixed: findings known in a place this run read that it no longer finds. Every finding of this run
// is new or still open, so the two add up to the total: a finding in a place no earlier run read is
// new, since no report ever told it (the report names such places as read for the first time).
import type { Severity } from '../checks/finding.ts';
import type { ItemType } from '../brightspace/places.ts';
import { ITEM_TYPES } from '../brightspace/places.ts';
import { COURSE_SCOPES, type CourseScope } from '../brightspace/course-scopes.ts';
import type { ComparedPlace, ComparedRun, Dismissal, Report, ReportComparison, ReportDismissedFinding, ReportFinding } from './model.ts';
import { keysOfFinding, placeKeyOf, placesOfRun, scopeOfFinding, type CoveredPlace } from './coverage.ts';
import { isRecord } from '../json.ts';

export interface ComparisonBaseline {
  /** The caller's previous successful run of this course: its report name and JSON twin, parsed. */
  previous?: { filename: string; report: unknown };
  /** What the caller dismissed for this course. */
  dismissals: readonly Dismissal[];
}

/** What the earlier runs knew, place by place, read back from the previous report. */
interface Known {
  previous: ComparedRun & { read: CoveredPlace[] };
  /** Each place read by an earlier run, with the most recent run that read it. */
  places: Map<string, ComparedPlace>;
  /** The findings found there by that run. */
  findings: ReportFinding[];
  /** Findings that were dismissed there: known, so one restored later is still open, not new. */
  dismissed: ReportFinding[];
  /** The fingerprints of both. */
  fingerprints: Set<string>;
}

const itemKey = (place: { itemType: string; itemId: number | null }) => `${place.itemType}:${place.itemId ?? ''}`;

export function compareWithHistory(report: Report, baseline: ComparisonBaseline): Report {
  const dismissals = new Map(baseline.dismissals.map((dismissal) => [dismissal.fingerprint, dismissal]));
  const known = baseline.previous === undefined ? undefined : knownFrom(baseline.previous.report);

  const read = placesOfRun(report);
  const readKeys = new Set(read.map(placeKeyOf));
  const knownPlace = (keys: string[]) => known !== undefined && keys.every((key) => known.places.has(key));

  const findings: ReportFinding[] = [];
  const dismissed: ReportDismissedFinding[] = [];
  for (const { status: _status, ...finding } of report.findings) {
    const dismissal = dismissals.get(finding.fingerprint);
    if (dismissal !== undefined) {
      const { fingerprint: _fingerprint, ...why } = dismissal;
      dismissed.push({ ...finding, dismissal: why });
    } else if (known === undefined) {
      findings.push(finding);
    } else {
      const open = knownPlace(keysOfFinding(finding)) && known.fingerprints.has(finding.fingerprint);
      findings.push({ ...finding, status: open ? 'open' : 'new' });
    }
  }

  // An item this run could not read says nothing of what was found in it before.
  const notScannedNow = new Set(report.notScanned.map(itemKey));
  const found = new Set(report.findings.map((finding) => finding.fingerprint));
  const comparable = (finding: ReportFinding) => keysOfFinding(finding).every((key) => readKeys.has(key)) && !notScannedNow.has(itemKey(finding));
  const fixed = (known?.findings ?? []).filter((finding) => !found.has(finding.fingerprint) && comparable(finding));

  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  const totals: Report['totals'] = {
    ...report.totals,
    findings: counts,
    review: findings.filter((finding) => finding.review === true).length,
  };
  delete totals.comparison;
  if (known !== undefined) {
    const fresh = findings.filter((finding) => finding.status === 'new').length;
    totals.comparison = { new: fresh, open: findings.length - fresh, fixed: fixed.length, dismissed: dismissed.length };
  }

  // What this run neither read nor found is still as the earlier runs knew it.
  const unknownNow = (finding: ReportFinding) => !comparable(finding) && !found.has(finding.fingerprint);
  return { ...report, totals, findings, comparison: comparisonOf(baseline, known, read, unknownNow, fixed), dismissed };
}

function comparisonOf(baseline: ComparisonBaseline, known: Known | undefined, read: CoveredPlace[], unknownNow: (finding: ReportFinding) => boolean, fixed: ReportFinding[]): ReportComparison {
  if (known === undefined) return { previous: null, compared: [], firstRead: [], fixed, carried: { places: [], findings: [], dismissed: [] } };
  const compared: ComparedPlace[] = [];
  const firstRead: CoveredPlace[] = [];
  for (const place of read) {
    const before = known.places.get(placeKeyOf(place));
    if (before === undefined) firstRead.push(place);
    else compared.push({ place, run: before.run });
  }
  // What this run left out (a place it did not read, an item it could not) is carried as the earlier
  // runs knew it; what it read, it now knows itself.
  const readKeys = new Set(read.map(placeKeyOf));
  const carriedPlaces = [...known.places.entries()].filter(([key]) => !readKeys.has(key)).map(([, place]) => place);
  const carriedFindings = known.findings.filter(unknownNow);
  const carriedDismissed = known.dismissed.filter(unknownNow);
  const { startedAt, finishedAt, read: previousRead } = known.previous;
  return {
    previous: { filename: baseline.previous!.filename, startedAt, finishedAt, read: previousRead },
    compared,
    firstRead,
    fixed,
    carried: { places: carriedPlaces, findings: carriedFindings, dismissed: carriedDismissed },
  };
}

// --- Reading the previous report back ------------------------------------------------------------
// The JSON twin is our own file, but it may come from an older version or be damaged: only what
// has the expected shape is used, and a report that cannot be read is no baseline at all.

const SEVERITIES: readonly string[] = ['error', 'warning', 'info'];
const isIdOrNull = (value: unknown): value is number | null => value === null || (typeof value === 'number' && Number.isSafeInteger(value));
const isItemType = (value: unknown): value is ItemType => (ITEM_TYPES as readonly unknown[]).includes(value);

const isScope = (value: unknown): value is CourseScope => (COURSE_SCOPES as readonly unknown[]).includes(value);

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
  // Reports before `scope` was written: derived as the report writes it now.
  const scope = isScope(value.scope) ? value.scope : scopeOfFinding(finding);
  if (scope !== undefined) finding.scope = scope;
  return finding;
}

const findingsOf = (value: unknown): ReportFinding[] => (Array.isArray(value) ? value.flatMap((entry) => findingOf(entry) ?? []) : []);

function coveredPlaceOf(value: unknown): CoveredPlace | undefined {
  if (!isRecord(value)) return undefined;
  if (typeof value.module === 'number') {
    return { module: value.module, title: typeof value.title === 'string' ? value.title : '', ...(typeof value.parent === 'number' ? { parent: value.parent } : {}) };
  }
  return isScope(value.scope) ? { scope: value.scope } : undefined;
}

function comparedRunOf(value: unknown): ComparedRun | undefined {
  return isRecord(value) && typeof value.startedAt === 'string' && typeof value.finishedAt === 'string' ? { startedAt: value.startedAt, finishedAt: value.finishedAt } : undefined;
}

/** What the previous report knew: its own places and findings, and what it carried from earlier runs. */
function knownFrom(value: unknown): Known | undefined {
  if (!isRecord(value) || !Array.isArray(value.findings) || !Array.isArray(value.modules)) return undefined;
  const run = comparedRunOf(value);
  if (run === undefined) return undefined;
  const modules = value.modules.flatMap((module) =>
    isRecord(module) && typeof module.moduleId === 'number'
      ? [{ moduleId: module.moduleId, title: typeof module.title === 'string' ? module.title : '', parentModuleId: typeof module.parentModuleId === 'number' ? module.parentModuleId : null }]
      : [],
  );
  const scopes = Array.isArray(value.scopes) ? value.scopes.filter(isScope) : [];
  const read = placesOfRun({ modules, scopes });
  const places = new Map<string, ComparedPlace>();
  const carried = isRecord(value.comparison) && isRecord(value.comparison.carried) ? value.comparison.carried : {};
  for (const entry of Array.isArray(carried.places) ? carried.places : []) {
    const place = isRecord(entry) ? coveredPlaceOf(entry.place) : undefined;
    const when = isRecord(entry) ? comparedRunOf(entry.run) : undefined;
    if (place !== undefined && when !== undefined) places.set(placeKeyOf(place), { place, run: when });
  }
  for (const place of read) places.set(placeKeyOf(place), { place, run });

  // It carried only what it could not compare itself; what it found itself comes first.
  const unique = (list: ReportFinding[]) => [...new Map(list.reverse().map((finding) => [finding.fingerprint, finding])).values()].reverse();
  const findings = unique([...findingsOf(value.findings), ...findingsOf(carried.findings)]);
  const dismissed = unique([...findingsOf(value.dismissed), ...findingsOf(carried.dismissed)]);
  const fingerprints = new Set([...findings, ...dismissed].map((finding) => finding.fingerprint));
  return { previous: { ...run, read }, places, findings, dismissed, fingerprints };
}
