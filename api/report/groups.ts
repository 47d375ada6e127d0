// The report's two ways of gathering findings beyond module and topic: "Fix first" (the errors by
// problem, the most widespread first) and repeated problems (the same thing in several places,
// listed once). Pure functions over the report model.
import type { Report, ReportFinding } from './model.ts';
import { placeKey } from './present.ts';

/** Where a finding is listed in the report, for a link to it. */
export interface PlaceRef {
  key: string;
  moduleId: number | null;
  moduleTitle: string | null;
  topicId: number | null;
  topicTitle: string | null;
  itemType: ReportFinding['itemType'];
  itemId: number | null;
  itemTitle: string | null;
  /** Findings of the group in this place. */
  count: number;
}

function placesOf(findings: readonly ReportFinding[]): PlaceRef[] {
  const places = new Map<string, PlaceRef>();
  for (const finding of findings) {
    const key = placeKey(finding);
    const known = places.get(key);
    if (known !== undefined) known.count++;
    else {
      const { moduleId, moduleTitle, topicId, topicTitle, itemType, itemId, itemTitle } = finding;
      places.set(key, { key, moduleId, moduleTitle, topicId, topicTitle, itemType, itemId, itemTitle, count: 1 });
    }
  }
  return [...places.values()];
}

export interface FixFirstGroup {
  check: string;
  findings: ReportFinding[];
  places: PlaceRef[];
}

/** The errors by check, the one in most places first (then most errors, then report order). */
export function fixFirstGroups(report: Pick<Report, 'findings'>): FixFirstGroup[] {
  const byCheck = new Map<string, ReportFinding[]>();
  for (const finding of report.findings) {
    if (finding.severity !== 'error') continue;
    const list = byCheck.get(finding.check) ?? [];
    list.push(finding);
    byCheck.set(finding.check, list);
  }
  return [...byCheck.entries()]
    .map(([check, findings], order) => ({ check, findings, places: placesOf(findings), order }))
    .sort((a, b) => b.places.length - a.places.length || b.findings.length - a.findings.length || a.order - b.order)
    .map(({ check, findings, places }) => ({ check, findings, places }));
}

export interface RepeatedGroup {
  /** The group's anchor in the report: `repeated-<n>`. */
  id: string;
  /** One of the findings, for what they share: check, severity, message, address, details. */
  example: ReportFinding;
  findings: ReportFinding[];
  places: PlaceRef[];
}

/** In how many places the same problem must be before it is listed once rather than in each. */
export const REPEATED_MIN_PLACES = 3;

function sameProblem(finding: ReportFinding): string {
  return JSON.stringify([finding.check, finding.subject ?? finding.url ?? '', finding.message]);
}

/** The same check, about the same thing, saying the same, in at least REPEATED_MIN_PLACES places. */
export function repeatedGroups(findings: readonly ReportFinding[], minPlaces = REPEATED_MIN_PLACES): RepeatedGroup[] {
  const byProblem = new Map<string, ReportFinding[]>();
  for (const finding of findings) {
    const key = sameProblem(finding);
    const list = byProblem.get(key) ?? [];
    list.push(finding);
    byProblem.set(key, list);
  }
  const rank = { error: 0, warning: 1, info: 2 } as const;
  return [...byProblem.values()]
    .map((list) => ({ list, places: placesOf(list) }))
    .filter(({ places }) => places.length >= minPlaces)
    .sort((a, b) => rank[a.list[0]!.severity] - rank[b.list[0]!.severity] || b.places.length - a.places.length)
    .map(({ list, places }, index) => ({ id: `repeated-${index + 1}`, example: list[0]!, findings: list, places }));
}
