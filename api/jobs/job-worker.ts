// A job's process (started by the local job runner with child_process.fork, at a lower CPU
// priority than the API): runs executeJob with the credentials it was handed over IPC, writes the
// reports itself and sends every job update to the pool, which owns the store.
import { executeJob } from './execute-job.ts';
import { createFileReportStore } from './file-report-store.ts';
import { serveJob } from './job-process.ts';
import { openSqliteVerdictCache } from './sqlite-verdict-cache.ts';

serveJob(async ({ data, jobs, baselines, signal }) => {
  const cache = data.verdictsPath === undefined ? undefined : openSqliteVerdictCache({ path: data.verdictsPath });
  await executeJob({
    ...(cache === undefined ? {} : { cache }),
    ...(data.linkMaxAgeMs === undefined ? {} : { options: { linkMaxAgeMs: data.linkMaxAgeMs } }),
    job: data.job,
    credentials: data.credentials,
    jobs,
    reports: createFileReportStore(data.reportsDir),
    ...(data.compare ? { baselines } : {}),
    allowPrivateTargets: data.allowPrivateTargets,
    signal,
    progressIntervalMs: data.progressIntervalMs,
    log: (line) => console.error(line),
  }).finally(() => cache?.close());
});
