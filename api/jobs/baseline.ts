// The baseline of a run's comparison, read from the stores: the owner's previous successful run of
// the course with its JSON twin, and what the owner dismissed for the course. The same on every
// runtime: the local server reads SQLite and the reports folder, the Fargate task DynamoDB and S3.
// One previous report is enough even after a partial run: it carries what older runs knew of the
// places it did not read (report/compare.ts), so no older report has to be looked up.
import type { BaselineSource, DismissalStore, JobHistory, ReportStore } from './types.ts';

export function createBaselineSource(parts: { history: JobHistory; dismissals: DismissalStore; reports: ReportStore }): BaselineSource {
  return {
    async baselineFor(job) {
      const course = { siteUrl: job.siteUrl, orgUnitId: job.orgUnitId };
      const [previousJob, dismissals] = await Promise.all([parts.history.previousSucceeded(job), parts.dismissals.list(job.owner, course)]);
      const text = previousJob === undefined ? undefined : await parts.reports.get(previousJob.filename, 'json');
      if (previousJob === undefined || text === undefined) return { dismissals };
      let report: unknown;
      try {
        report = JSON.parse(text);
      } catch {
        // A damaged twin is no baseline: the report then says there is nothing to compare with.
        return { dismissals };
      }
      return { previous: { filename: previousJob.filename, report }, dismissals };
    },
  };
}
