// What a run is doing, and how far it is: the phases in order, and the one throttle every runner's
// progress goes through (a job store need not take a write per link).

/** What a run is doing, in order; the progress counts the current phase's items. */
export const RUN_PHASES = ['sign-in', 'contents', 'topics', 'links', 'report'] as const;
export type RunPhase = (typeof RUN_PHASES)[number];

export interface RunProgress {
  phase: RunPhase;
  done: number;
  total: number;
}

const PROGRESS_INTERVAL_MS = 250;

export type ProgressReporter = (phase: RunPhase, done: number, total: number) => void;

/**
 * Progress for the runner, at most every 250 ms within a phase, but always at the start and end of
 * each phase, and never the same twice.
 */
export function progressReporter(onProgress: ((progress: RunProgress) => void) | undefined): ProgressReporter {
  let last: RunProgress | null = null;
  let lastAt = 0;
  return (phase, done, total) => {
    if (!onProgress) return;
    const now = Date.now();
    if (last !== null && phase === last.phase && done === last.done && total === last.total) return;
    if (phase === last?.phase && done < total && now - lastAt < PROGRESS_INTERVAL_MS) return;
    last = { phase, done, total };
    lastAt = now;
    onProgress({ ...last });
  };
}
