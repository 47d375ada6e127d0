// What a finished run found, counted as the report counts it: the job monitor's summary line
// (job-status `summary`) and the command line's last line come from here.
import type { ComparedRun, Report } from './model.ts';
import { comparedOnAll, type CoveredPlace } from './coverage.ts';

/** At most this many places are named in a summary's comparison; the rest are counted. */
export const SUMMARY_PLACES = 10;

/** What a finished run found, counted as the report counts it. */
export interface JobSummary {
  findings: { error: number; warning: number; info: number; review: number };
  topics: number;
  scanned: number;
  notScanned: number;
  documents: number;
  links: number;
  /**
   * Against the caller's previous successful run of the same course; absent when there was none.
   * Dismissed findings are out of `findings` and counted here.
   */
  comparison?: {
    new: number;
    /** Absent in summaries written before it; with `new`, the findings counted. */
    open?: number;
    fixed: number;
    dismissed: number;
    /** When the previous run of the course ran. */
    previous?: ComparedRun;
    /**
     * What the comparison covered: the first SUMMARY_PLACES places compared and how many more;
     * `all` when that is everything either run read (nothing was left out of the comparison).
     */
    comparedOn?: { all: boolean; places: CoveredPlace[]; more: number };
  };
  /** The run scored by its protocol: the readiness score and how many items are in each state. */
  protocol?: { name: string; version: number; score: number | null; items: { pass: number; fail: number; person: number; na: number } };
}

export function summaryOf(report: Report): JobSummary {
  const { totals } = report;
  return {
    findings: { ...totals.findings, review: totals.review },
    topics: totals.topics,
    scanned: totals.scanned,
    notScanned: totals.notScanned,
    documents: totals.documents,
    links: totals.links,
    ...(totals.comparison === undefined ? {} : { comparison: { ...totals.comparison, ...comparedOf(report) } }),
    ...(report.protocol === undefined ? {} : { protocol: protocolOf(report.protocol) }),
  };
}

function protocolOf(protocol: NonNullable<Report['protocol']>): NonNullable<JobSummary['protocol']> {
  const count = (status: string) => protocol.items.filter((item) => item.status === status).length;
  return { name: protocol.name, version: protocol.version, score: protocol.score, items: { pass: count('pass'), fail: count('fail'), person: count('needs-person'), na: count('n/a') } };
}

function comparedOf(report: Report): Pick<NonNullable<JobSummary['comparison']>, 'previous' | 'comparedOn'> {
  const { comparison } = report;
  if (comparison === undefined || comparison.previous === null) return {};
  const { startedAt, finishedAt } = comparison.previous;
  const places = comparison.compared.map((entry) => entry.place);
  return {
    previous: { startedAt, finishedAt },
    comparedOn: { all: comparedOnAll(comparison), places: places.slice(0, SUMMARY_PLACES), more: Math.max(0, places.length - SUMMARY_PLACES) },
  };
}
