// The report model: what a run found, in the run's language. The JSON twin is this object as
// written (DESIGN.md, "The engine", 3. Report); the HTML and CSV writers read only this.
import type { CheckedDocument, Finding, NotScanned, Severity } from '../checks/finding.ts';
import type { CourseScope } from '../http/contract.ts';
import type { Language } from '../i18n/languages.ts';

export const REPORT_SCHEMA_VERSION = 2;

/** A finding as written: its message in the report's language, and a fingerprint stable across runs. */
export interface ReportFinding extends Omit<Finding, 'message'> {
  message: string;
  /** The same for the same problem in the same place in every run (check, place, subject). */
  fingerprint: string;
  /** Against the previous run of the course: new, or still open. Absent for a first run. */
  status?: 'new' | 'open';
}

/** A document that was read and checked (a File topic's file, or a course file a page links to). */
export type ReportDocument = CheckedDocument;

export interface ReportNotScanned extends Omit<NotScanned, 'reason'> {
  reason: string;
}

/** The tested modules in table-of-contents order, flattened with their depth. */
export interface ReportModule {
  moduleId: number;
  title: string;
  depth: number;
  parentModuleId: number | null;
  topics: { topicId: number; title: string; viewUrl: string }[];
}

export interface Report {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  tool: { name: 'CTPO'; version: string };
  client: string;
  siteUrl: string;
  orgUnitId: number;
  courseName?: string;
  /** The language every text of the report is written in. */
  language: Language;
  /** The course-wide items the run read besides the modules. */
  scopes: CourseScope[];
  modules: ReportModule[];
  startedAt: string;
  finishedAt: string;
  totals: {
    topics: number;
    scanned: number;
    notScanned: number;
    documents: number;
    links: number;
    /** Links with schemes that are not the web's (mailto:, tel:, app links): counted, never fetched. */
    linksNotCheckable: number;
    findings: Record<Severity, number>;
    /** Of the `info` findings, those a person must look at ("Needs review"). */
    review: number;
  };
  findings: ReportFinding[];
  notScanned: ReportNotScanned[];
  /** The documents read and checked, in the course's order. */
  documents: ReportDocument[];
}
