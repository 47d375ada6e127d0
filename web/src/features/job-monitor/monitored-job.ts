// The job being watched, kept in localStorage so a reload keeps watching it. Only the job's id,
// its report file name, whose course it tests (the client label and org unit, so the monitor names
// it before the first answer) and who started it are stored: never a credential. A job is resumed only
// for the user who started it, so a shared browser does not show one user's job to the next.

export interface MonitoredJob {
  taskArn: string;
  filename: string;
  client?: string;
  orgUnitId?: string;
}

const STORAGE_KEY = 'ctpo.monitoredJob';

export function loadMonitoredJob(owner: string): MonitoredJob | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const stored = value as Record<string, unknown>;
    if (stored.owner !== owner || typeof stored.taskArn !== 'string' || stored.taskArn === '') return null;
    return {
      taskArn: stored.taskArn,
      filename: typeof stored.filename === 'string' ? stored.filename : '',
      ...(typeof stored.client === 'string' ? { client: stored.client } : {}),
      ...(typeof stored.orgUnitId === 'string' ? { orgUnitId: stored.orgUnitId } : {}),
    };
  } catch {
    // Storage can be disabled or hold something else under our key; watching nothing is the safe answer.
    return null;
  }
}

export function saveMonitoredJob(job: MonitoredJob, owner: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...job, owner }));
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
