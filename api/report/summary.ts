// What a finished run found, counted as the report counts it: the job monitor's summary line
// (job-status `summary`) and the command line's last line come from here.
import type { Report } from './model.ts';

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
  comparison?: { new: number; fixed: number; dismissed: number };
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
    ...(totals.comparison === undefined ? {} : { comparison: { ...totals.comparison } }),
  };
}
