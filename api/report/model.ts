// The report model: what a run found, in the run's language. The JSON twin is this object as
// written (DESIGN.md, "The engine", 3. Report); the HTML and CSV writers read only this.
import type { CheckedDocument, Finding, Severity, NotScanned } from '../checks/finding.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import type { CourseScope } from '../brightspace/course-scopes.ts';
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

/** How accessibility was checked (DESIGN.md, "The engine": in a browser, or without one as a stated fallback). */
export interface ReportAccessibility {
  mode: 'browser' | 'jsdom';
  axeVersion: string;
  /** The headless Chromium's version (browser mode). */
  browserVersion?: string;
  /** AAA enhanced contrast (7:1) was checked too. */
  enhancedContrast: boolean;
  /** axe rules a browser would have run that this run did not (without a browser). */
  notRun: string[];
  /** axe rules whose own code failed, and on how many items: those items were not checked for them. */
  ruleErrors: { rule: string; items: number }[];
  /** One sentence on how accessibility was checked, in the report's language. */
  summary: string;
  /** The header's warning of what was not checked, in the report's language; absent when all was. */
  note?: string;
  /** One sentence per rule that failed to run, in the report's language. */
  ruleErrorNotes: string[];
}

/** The tested modules in table-of-contents order, flattened with their depth. */
export interface ReportModule {
  moduleId: number;
  title: string;
  depth: number;
  parentModuleId: number | null;
  topics: { topicId: number; title: string; viewUrl: string }[];
}

/**
 * A course item besides the modules and topics that the run checked (an assignment, a quiz, an
 * announcement, a grade item, the course's overview and gradebook), with its page in Brightspace.
 * Items opened by a quicklink topic keep that topic's module and topic; course-wide ones have none.
 */
export interface ReportItem extends ItemPlace {
  viewUrl: string | null;
}

/** Something about the run as a whole: a route the site does not offer, what could not be read. */
export interface ReportNote {
  message: string;
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
    /** Against the previous run of the course (report/compare.ts); absent when there was none. */
    comparison?: { new: number; fixed: number; dismissed: number };
  };
  /** The findings to act on; dismissed ones are in `dismissed`, out of every count. */
  findings: ReportFinding[];
  notScanned: ReportNotScanned[];
  /** Course items besides modules and topics, in report order (course-wide ones after the modules). */
  items: ReportItem[];
  notes: ReportNote[];
  /** The documents read and checked, in the course's order. */
  documents: ReportDocument[];
  /** Present once the run was compared with the course's history (report/compare.ts). */
  comparison?: ReportComparison;
  /** Findings of this run the user dismissed for this course, with who and why. */
  dismissed?: ReportDismissedFinding[];
  /** How accessibility was checked; absent in reports of runs that checked none. */
  accessibility?: ReportAccessibility;
}

/** What changed since the caller's previous successful run of the same course. */
export interface ReportComparison {
  /** The run compared with; null when there is none (the course's first run for this user). */
  previous: { filename: string; startedAt: string; finishedAt: string } | null;
  /**
   * Findings of the previous run this run no longer finds, where both runs looked, as the previous
   * report wrote them (its language).
   */
  fixed: ReportFinding[];
}

/** Why a finding is out of the counts: who dismissed it for the course, when, and why. */
export interface Dismissal {
  fingerprint: string;
  /** The name of the person, as the sign-in knows them (their e-mail). */
  by: string;
  at: string;
  reason?: string;
}

export interface ReportDismissedFinding extends ReportFinding {
  dismissal: Omit<Dismissal, 'fingerprint'>;
}
