// The report model: the tested modules in table-of-contents order, findings sorted the way a course
// builder works through them (module, topic, severity), every message written in the run's
// language, each finding's fingerprint, and the totals.
import { createHash } from 'node:crypto';
import packageJson from '../../package.json' with { type: 'json' };
import type { SelectedModule } from '../brightspace/toc.ts';
import type { CheckedDocument, Finding, Severity, NotScanned } from '../checks/finding.ts';
import type { CheckedItem } from '../sources/course-items.ts';
import type { CourseScope } from '../brightspace/course-scopes.ts';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/languages.ts';
import type { AccessibilityCheckInfo } from '../a11y/a11y-runner.ts';
import { formatMessage, type Message } from '../i18n/messages.ts';
import { accessibilityOfReport } from './accessibility-summary.ts';
import { scopeOfFinding } from './coverage.ts';
import { REPORT_SCHEMA_VERSION, type Report, type ReportFinding, type ReportReuse } from './model.ts';

export const TOOL_VERSION: string = packageJson.version;

export interface ReportInput {
  client: string;
  siteUrl: string;
  orgUnitId: number;
  courseName?: string;
  language?: Language;
  scopes?: CourseScope[];
  selected: SelectedModule[];
  viewUrl: (topicId: number) => string;
  findings: Finding[];
  notScanned: NotScanned[];
  /** Course items besides modules and topics that were checked. */
  courseItems?: CheckedItem[];
  /** Notes on the run as a whole. */
  runNotes?: Message[];
  scanned: number;
  /** Documents read and checked. */
  documents?: CheckedDocument[];
  links: number;
  /** Links with schemes that are not the web's (mailto:, tel:, app links), never fetched. */
  linksNotCheckable?: number;
  startedAt: Date;
  finishedAt: Date;
  /** How the run checked accessibility. */
  accessibility?: AccessibilityCheckInfo;
  /** What the run judged now and what it reused (runs with a verdict cache only). */
  reuse?: ReportReuse;
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * A finding's identity across runs: its check, the item it is in, and what it concerns there (the
 * link, the element, the rule), never its wording or its position on the page.
 */
export function fingerprintOf(finding: Finding): string {
  const item = `${finding.itemType}:${finding.itemId ?? finding.topicId ?? finding.moduleId ?? ''}`;
  const subject = finding.subject ?? finding.url ?? '';
  // A finding inside a document (a link in a PDF a page links to) is not the page's own.
  const parts = finding.document === undefined ? [finding.check, item, subject] : [finding.check, item, subject, finding.document];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 20);
}

/**
 * Two findings the checks could not tell apart (two videos without captions and without an address
 * in one topic) still get fingerprints of their own, numbered in report order, so a dismissal or a
 * comparison never stands for both.
 */
function distinctFingerprints(findings: ReportFinding[]): void {
  const seen = new Map<string, number>();
  for (const finding of findings) {
    const occurrence = (seen.get(finding.fingerprint) ?? 0) + 1;
    seen.set(finding.fingerprint, occurrence);
    if (occurrence > 1) finding.fingerprint = createHash('sha256').update(JSON.stringify([finding.fingerprint, occurrence])).digest('hex').slice(0, 20);
  }
}

export function buildReport(input: ReportInput): Report {
  const language = input.language ?? DEFAULT_LANGUAGE;
  const moduleOrder = new Map(input.selected.map((entry, index) => [entry.module.ModuleId, index]));
  const topicOrder = new Map<number, number>();
  const topicRank = new Map<number, number>();
  for (const entry of input.selected) {
    entry.topics.forEach((topic, index) => {
      topicOrder.set(topic.TopicId, index);
      topicRank.set(topic.TopicId, topicRank.size);
    });
  }
  // Course-wide items (no module) come after the modules, as the report shows them.
  const rankOfModule = (id: number | null) => (id === null ? Number.MAX_SAFE_INTEGER : (moduleOrder.get(id) ?? Number.MAX_SAFE_INTEGER - 1));
  const rankOfTopic = (id: number | null) => (id === null ? -1 : (topicOrder.get(id) ?? 0));

  const findings: ReportFinding[] = [...input.findings]
    .sort(
      (a, b) =>
        rankOfModule(a.moduleId) - rankOfModule(b.moduleId) ||
        rankOfTopic(a.topicId) - rankOfTopic(b.topicId) ||
        a.itemType.localeCompare(b.itemType) ||
        (a.itemId ?? 0) - (b.itemId ?? 0) ||
        SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
        a.check.localeCompare(b.check) ||
        (a.url ?? '').localeCompare(b.url ?? '') ||
        (a.subject ?? '').localeCompare(b.subject ?? ''),
    )
    .map((finding) => {
      const scope = scopeOfFinding(finding);
      return { ...finding, message: formatMessage(finding.message, language), fingerprint: fingerprintOf(finding), ...(scope === undefined ? {} : { scope }) };
    });
  distinctFingerprints(findings);
  const notScanned = [...input.notScanned]
    .sort((a, b) => (topicRank.get(a.topicId ?? -1) ?? Number.MAX_SAFE_INTEGER) - (topicRank.get(b.topicId ?? -1) ?? Number.MAX_SAFE_INTEGER))
    .map((item) => ({ ...item, reason: formatMessage(item.reason, language) }));
  const items = [...(input.courseItems ?? [])]
    .sort(
      (a, b) =>
        rankOfModule(a.place.moduleId) - rankOfModule(b.place.moduleId) ||
        rankOfTopic(a.place.topicId) - rankOfTopic(b.place.topicId) ||
        a.place.itemType.localeCompare(b.place.itemType) ||
        (a.place.itemTitle ?? '').localeCompare(b.place.itemTitle ?? '') ||
        (a.place.itemId ?? 0) - (b.place.itemId ?? 0),
    )
    .map((item) => ({ ...item.place, viewUrl: item.viewUrl }));
  const documents = [...(input.documents ?? [])].sort(
    (a, b) => (topicRank.get(a.topicId ?? -1) ?? Number.MAX_SAFE_INTEGER) - (topicRank.get(b.topicId ?? -1) ?? Number.MAX_SAFE_INTEGER) || a.url.localeCompare(b.url),
  );
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const item of findings) counts[item.severity]++;
  const topics = input.selected.reduce((sum, entry) => sum + entry.topics.length, 0);

  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'CTPO', version: TOOL_VERSION },
    client: input.client,
    siteUrl: input.siteUrl,
    orgUnitId: input.orgUnitId,
    ...(input.courseName !== undefined ? { courseName: input.courseName } : {}),
    language,
    scopes: input.scopes ?? [],
    modules: input.selected.map((entry) => ({
      moduleId: entry.module.ModuleId,
      title: entry.module.Title,
      depth: entry.depth,
      parentModuleId: entry.parentModuleId,
      topics: entry.topics.map((topic) => ({ topicId: topic.TopicId, title: topic.Title, viewUrl: input.viewUrl(topic.TopicId) })),
    })),
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    totals: {
      topics,
      scanned: input.scanned,
      notScanned: notScanned.length,
      documents: documents.length,
      links: input.links,
      linksNotCheckable: input.linksNotCheckable ?? 0,
      findings: counts,
      review: input.findings.filter((item) => item.review === true).length,
    },
    findings,
    notScanned,
    items,
    notes: (input.runNotes ?? []).map((note) => ({ message: formatMessage(note, language) })),
    documents,
    ...(input.accessibility === undefined ? {} : { accessibility: accessibilityOfReport(input.accessibility, language) }),
    ...(input.reuse === undefined ? {} : { reuse: input.reuse }),
  };
}
