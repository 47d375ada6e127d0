// A job's process (started by the local job runner with child_process.fork, at a lower CPU
// priority than the API): runs executeJob with the credentials it was handed over IPC, writes the
// reports itself and sends every job update to the pool, which owns the store.
import { executeJob } from './execute-job.ts';
import { createFileReportStore } from './file-report-store.ts';
import { serveJob } from './job-process.ts';

serveJob(async ({ data, jobs, baselines, signal }) => {
  await executeJob({
    job: data.job,
    credentials: data.credentials,
    jobs,
    reports: createFileReportStore(data.reportsDir),
    ...(data.compare ? { baselines } : {}),
    allowPrivateTargets: data.allowPrivateTargets,
    signal,
    progressIntervalMs: data.progressIntervalMs,
    log: (line) => console.error(line),
  });
});
