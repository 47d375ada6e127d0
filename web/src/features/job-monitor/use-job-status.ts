import { useCallback, useEffect, useState } from 'react';
import { getJobStatus, isTerminalJobStatus, type JobStatusReport } from '@/features/job-monitor/api/get-job-status';

/**
 * Polls the job's status at once, then every `intervalMs` after each answer, until it is
 * SUCCEEDED or FAILED. A failed poll goes to the console only and the next one is still scheduled.
 * `known` takes a status learnt otherwise (a cancel's answer), shown at once; a terminal one ends
 * the polling.
 */
export function useJobStatus(taskArn: string, intervalMs: number): { report: JobStatusReport | null; known: (report: JobStatusReport) => void } {
  const [report, setReport] = useState<JobStatusReport | null>(null);
  const [ended, setEnded] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;

    if (ended) return;
    const poll = async () => {
      try {
        const next = await getJobStatus(taskArn, controller.signal);
        if (controller.signal.aborted) return;
        setReport(next);
        if (isTerminalJobStatus(next.status)) return;
      } catch (error) {
        if (controller.signal.aborted) return;
        console.error('CTPO: checking the job status failed; trying again shortly', error);
      }
      timer = setTimeout(() => void poll(), intervalMs);
    };
    void poll();

    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [taskArn, intervalMs, ended]);

  const known = useCallback((next: JobStatusReport) => {
    setReport(next);
    if (isTerminalJobStatus(next.status)) setEnded(true);
  }, []);

  return { report, known };
}
