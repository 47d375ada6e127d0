// Retention on the local stack, as DynamoDB's TTL and the bucket's lifecycle rule do it on AWS:
// finished runs older than the expiry go, with their report files, at start and then daily.
// Dismissals are not runs: they stay until the user restores them.
import type { FileReportStore } from '../jobs/file-report-store.ts';
import type { SqliteJobStore } from '../jobs/sqlite-job-store.ts';

const DAY_MS = 86_400_000;

export interface RetentionOptions {
  jobs: SqliteJobStore;
  reports: FileReportStore;
  /** Days a run and its report are kept; null keeps them for ever. */
  days: number | null;
  /** How often to sweep after the first. Default daily. */
  intervalMs?: number;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface Retention {
  /** Deletes what has expired; resolves with how many runs went. */
  sweep(): Promise<number>;
  stop(): void;
}

export function startRetention(options: RetentionOptions): Retention {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const { days } = options;
  const sweep = async (): Promise<number> => {
    if (days === null) return 0;
    const filenames = await options.jobs.deleteFinishedBefore(new Date(now().getTime() - days * DAY_MS));
    // The record goes first: a report file left behind by a failed delete is unreachable anyway.
    for (const filename of filenames) await options.reports.remove(filename);
    return filenames.length;
  };
  let timer: NodeJS.Timeout | undefined;
  if (days !== null) {
    timer = setInterval(() => {
      sweep().catch((error: unknown) => log(`retention: ${error instanceof Error ? error.message : String(error)}`));
    }, options.intervalMs ?? DAY_MS);
    timer.unref();
  }
  return {
    sweep,
    stop: () => clearInterval(timer),
  };
}
