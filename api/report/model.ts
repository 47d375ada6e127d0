// The report model: what a run found, in the run's language. The JSON twin is this object as
// written (DESIGN.md, "The engine", 3. Report); the HTML and CSV writers read only this.
import type { CheckedDocument, Finding, Severity, NotScanned } from '../checks/finding.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import type { CourseScope } from '../brightspace/course-scopes.ts';
import type { Language } from '../i18n/languages.ts';
import type { CoveredPlace } from './coverage.ts';

// 3: every finding has a status once compared, `scope` on course-wide findings, and the comparison
// says what it covered (compared, firstRead, carried) and what the previous run read.
export const REPORT_SCHEMA_VERSION = 3;

/** A finding as written: its message in the report's language, and a fingerprint stable across runs. */
export interface ReportFinding extends Omit<Finding, 'message'> {
  message: string;
  /** The same for the same problem in the same place in every run (check, place, subject). */
  fingerprint: string;
  /**
   * Against the course's earlier runs: new, or still open. Every finding has one once there is an
   * earlier run; absent for a first run.
   */
  status?: 'new' | 'open';
  /**
   * The course-wide part of the course that read it (run-tests SCOPES): a grade finding's is the
   * gradebook, the overview's the overview, an item outside the modules its tool's. Absent for a
   * module's own content. Reports before it had none: report/coverage.ts derives it the same way.
   */
  scope?: CourseScope;
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
  /** Accessibility engines that failed on some items while the other engine's verdicts stood. */
  engineErrors?: { engine: string; items: number }[];
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
    /**
     * Against the course's earlier runs (report/compare.ts); absent when there was none. `new` and
     * `open` add up to the findings counted.
     */
    comparison?: { new: number; open: number; fixed: number; dismissed: number };
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
  /** The run scored against the client's course testing protocol (api/protocol/); absent before it was. */
  protocol?: ReportProtocol;
  /** What the run judged now and what it reused from earlier runs (the verdict cache); absent for a run that kept none. */
  reuse?: ReportReuse;
}

/**
 * Items judged now, and items whose verdict an earlier run made: the item, its page or file, and the
 * run that judged it, unchanged since (same bytes, same resources, same judges).
 */
export interface ReportReuse {
  checked: number;
  reused: number;
  /** When the oldest reused verdict was made; null when none was reused. */
  since: string | null;
  items: ReportReusedItem[];
}

export interface ReportReusedItem {
  /** The module and topic of a page (none for a document, which is named by its address). */
  moduleId: number | null;
  topicId: number | null;
  itemType: string | null;
  itemId: number | null;
  url: string | null;
  checkedAt: string;
}

/** One item of the protocol as this run decided it. */
export interface ReportProtocolItem {
  id: string;
  title: string;
  kind: 'auto' | 'manual';
  status: 'pass' | 'fail' | 'needs-person' | 'n/a';
  weight: number;
  /** The fingerprints of the open findings counted against an automated item; none for a manual one. */
  findings: string[];
  /** An automated item's check ids and families, the findings it allows and the least severity it counts. */
  checks?: string[];
  allow?: number;
  minSeverity?: Severity;
  /** A manual item's answer, with who gave it and when; absent while it needs a person. */
  answer?: { status: 'pass' | 'fail' | 'n/a'; note?: string; by: string; at: string };
}

/** The readiness of the run by the protocol: round(100 x passed weight / decided weight). */
export interface ReportProtocol {
  name: string;
  version: number;
  /** Null while nothing is decided (a protocol of unanswered manual items). */
  score: number | null;
  items: ReportProtocolItem[];
  /** Who marked the run ready for launch, and when. */
  ready?: { by: string; at: string };
}

/** An earlier run, named for a person by when it ran. */
export interface ComparedRun {
  startedAt: string;
  finishedAt: string;
}

/** A place this run read, and the most recent earlier run that had read it too. */
export interface ComparedPlace {
  place: CoveredPlace;
  run: ComparedRun;
}

/** What changed since the caller's earlier successful runs of the same course. */
export interface ReportComparison {
  /**
   * The run compared with (the caller's previous successful run of the course) and what it read;
   * null when there is none (the course's first run for this user).
   */
  previous: (ComparedRun & { filename: string; read?: CoveredPlace[] }) | null;
  /**
   * What the comparison covered: each place this run read that an earlier run had read too, with
   * the most recent such run (the previous one, or an older one when the previous run left the place
   * out). Findings elsewhere are neither fixed nor compared.
   */
  compared: ComparedPlace[];
  /** Places this run read that no earlier run had: their findings are all new. */
  firstRead: CoveredPlace[];
  /**
   * Findings of earlier runs this run no longer finds, in places both read, as those reports wrote
   * them (their language).
   */
  fixed: ReportFinding[];
  /**
   * What earlier runs knew of the places this run did not read, kept for the next run's comparison:
   * the places with the run that last read each, the findings found there then, and those that
   * were dismissed there then (known, so that one restored later is still open, not new).
   */
  carried: { places: ComparedPlace[]; findings: ReportFinding[]; dismissed: ReportFinding[] };
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
