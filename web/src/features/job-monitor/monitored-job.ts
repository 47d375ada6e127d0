// The job being watched, kept in localStorage so a reload keeps watching it. Only the job's id and
// report file name are stored: never a credential.

export interface MonitoredJob {
  taskArn: string;
  filename: string;
}

const STORAGE_KEY = 'ctpo.monitoredJob';

export function loadMonitoredJob(): MonitoredJob | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const { taskArn, filename } = value as Record<string, unknown>;
    if (typeof taskArn !== 'string' || taskArn === '') return null;
    return { taskArn, filename: typeof filename === 'string' ? filename : '' };
  } catch {
    // Storage can be disabled or hold something else under our key; watching nothing is the safe answer.
    return null;
  }
}

export function saveMonitoredJob(job: MonitoredJob): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ taskArn: job.taskArn, filename: job.filename }));
  } catch (error) {
    console.warn('CTPO: the monitored job could not be remembered; it will not survive a reload', error);
  }
}

export function clearMonitoredJob(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored, or storage unavailable: either way nothing is being remembered.
  }
}
