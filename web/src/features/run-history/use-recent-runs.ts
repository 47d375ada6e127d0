import { useCallback, useEffect, useRef, useState } from 'react';
import { listRuns, type RecentRun } from '@/features/run-history/api/list-runs';

const PAGE_SIZE = 10;

export type RecentRunsState =
  | { status: 'loading' }
  | { status: 'failed' }
  | { status: 'loaded'; runs: RecentRun[]; nextCursor?: string; loadingMore: boolean; moreFailed: boolean };

const isFinished = (run: RecentRun) => run.status === 'SUCCEEDED' || run.status === 'FAILED';

/** The newest runs first; older ones already on screen stay (a refresh only brings the first page). */
function merge(first: RecentRun[], shown: RecentRun[]): RecentRun[] {
  const fresh = new Set(first.map((run) => run.taskArn));
  return [...first, ...shown.filter((run) => !fresh.has(run.taskArn))].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/**
 * The signed-in user's runs from the API: loaded at once and again whenever `refreshKey` changes,
 * followed every `pollIntervalMs` while one of them is still going, and older pages on request.
 */
export function useRecentRuns(refreshKey: number, pollIntervalMs: number) {
  const [state, setState] = useState<RecentRunsState>({ status: 'loading' });
  const [retries, setRetries] = useState(0);
  const shown = useRef<{ runs: RecentRun[]; pagesLoaded: number; nextCursor?: string }>({ runs: [], pagesLoaded: 0 });

  const load = useCallback(async (signal: AbortSignal) => {
    const page = await listRuns({ limit: PAGE_SIZE, signal });
    const previous = shown.current;
    const runs = merge(page.runs, previous.pagesLoaded > 1 ? previous.runs : []);
    const nextCursor = previous.pagesLoaded > 1 ? previous.nextCursor : page.nextCursor;
    shown.current = { runs, pagesLoaded: Math.max(1, previous.pagesLoaded), ...(nextCursor ? { nextCursor } : {}) };
    setState({ status: 'loaded', runs, ...(nextCursor ? { nextCursor } : {}), loadingMore: false, moreFailed: false });
    return runs;
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const runs = await load(controller.signal);
        if (controller.signal.aborted || runs.every(isFinished)) return;
      } catch (error) {
        if (controller.signal.aborted) return;
        console.error('CTPO: loading the recent runs failed', error instanceof Error ? error.message : error);
        if (shown.current.pagesLoaded === 0) {
          setState({ status: 'failed' });
          return;
        }
      }
      timer = setTimeout(() => void poll(), pollIntervalMs);
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [load, refreshKey, retries, pollIntervalMs]);

  const loadMore = useCallback(async () => {
    const cursor = shown.current.nextCursor;
    if (!cursor) return;
    setState((current) => (current.status === 'loaded' ? { ...current, loadingMore: true, moreFailed: false } : current));
    try {
      const page = await listRuns({ limit: PAGE_SIZE, cursor });
      const runs = merge(shown.current.runs, page.runs);
      shown.current = { runs, pagesLoaded: shown.current.pagesLoaded + 1, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      setState({ status: 'loaded', runs, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), loadingMore: false, moreFailed: false });
    } catch (error) {
      console.error('CTPO: loading older runs failed', error instanceof Error ? error.message : error);
      setState((current) => (current.status === 'loaded' ? { ...current, loadingMore: false, moreFailed: true } : current));
    }
  }, []);

  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setRetries((count) => count + 1);
  }, []);

  return { state, loadMore, retry };
}
