// The baseline of a run's comparison, read from the stores: the owner's previous successful run of
// the course with its JSON twin, and what the owner dismissed for the course. The same on every
// runtime: the local server reads SQLite and the reports folder, the Fargate task DynamoDB and S3.
// One previous report is enough even after a partial run: it carries what older runs knew of the
// places it did not read (report/compare.ts), so no older report has to be looked up. With the
// protocol store, also what the run is scored by: its client's protocol and the course's answers.
import { DEFAULT_PROTOCOL } from '../protocol/default-protocol.ts';
import type { BaselineSource, DismissalStore, JobHistory, JobRecord, ProtocolBaseline, ProtocolStore, ReportStore } from './types.ts';

/** Where the previous run is found: the history, or (on AWS) the report name the run was handed. */
export type PreviousRun = { previousSucceeded(job: JobRecord): Promise<Pick<JobRecord, 'filename'> | undefined> };

export function createBaselineSource(parts: { history: JobHistory | PreviousRun; dismissals: DismissalStore; reports: ReportStore; protocols?: ProtocolStore }): BaselineSource {
  return {
    async baselineFor(job) {
      const course = { siteUrl: job.siteUrl, orgUnitId: job.orgUnitId };
      const [previousJob, dismissals, scoring] = await Promise.all([parts.history.previousSucceeded(job), parts.dismissals.list(job.owner, course), protocolOf(job, parts.protocols)]);
      const protocol = scoring === undefined ? {} : { protocol: scoring };
      const text = previousJob === undefined ? undefined : await parts.reports.get(previousJob.filename, 'json');
      if (previousJob === undefined || text === undefined) return { dismissals, ...protocol };
      let report: unknown;
      try {
        report = JSON.parse(text);
      } catch {
        // A damaged twin is no baseline: the report then says there is nothing to compare with.
        return { dismissals, ...protocol };
      }
      return { previous: { filename: previousJob.filename, report }, dismissals, ...protocol };
    },
  };
}

/** The client's protocol (CTPO's default when it has none) and the answers the course already has. */
async function protocolOf(job: JobRecord, protocols: ProtocolStore | undefined): Promise<ProtocolBaseline | undefined> {
  if (protocols === undefined) return undefined;
  const course = { siteUrl: job.siteUrl, orgUnitId: job.orgUnitId };
  const [stored, answers] = await Promise.all([protocols.get(job.owner, job.client), protocols.answers(job.owner, course)]);
  return { protocol: stored?.protocol ?? DEFAULT_PROTOCOL, answers };
}
