// What a finished run found, counted as the report counts it: the job monitor's summary line
// (job-status `summary`) and the command line's last line come from here.
import type { JobSummary } from '../http/contract.ts';
import type { Report } from './model.ts';

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
