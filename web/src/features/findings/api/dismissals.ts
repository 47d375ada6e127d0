import { apiRequest } from '@/lib/api-client';

/** A course as the history knows it: its site and its org unit. */
export interface CourseKey {
  siteUrl: string;
  orgUnitId: number;
}

export interface Dismissal {
  fingerprint: string;
  by: string;
  at: string;
  reason?: string;
}

function dismissalOf(value: unknown): Dismissal | null {
  if (typeof value !== 'object' || value === null) return null;
  const { fingerprint, by, at, reason } = value as Record<string, unknown>;
  if (typeof fingerprint !== 'string' || typeof by !== 'string' || typeof at !== 'string') return null;
  return { fingerprint, by, at, ...(typeof reason === 'string' && reason !== '' ? { reason } : {}) };
}

const courseQuery = (course: CourseKey, extra: Record<string, string> = {}) =>
  new URLSearchParams({ siteUrl: course.siteUrl, orgUnitId: String(course.orgUnitId), ...extra }).toString();

/** GET /api/dismissals: what the user dismissed for the course. */
export async function listDismissals(course: CourseKey, signal?: AbortSignal): Promise<Dismissal[]> {
  const body = await apiRequest<unknown>(`/api/dismissals?${courseQuery(course)}`, signal ? { signal } : {});
  const list = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).dismissals : undefined;
  if (!Array.isArray(list)) throw new Error('The dismissals are not in the expected form.');
  return list.map(dismissalOf).filter((dismissal): dismissal is Dismissal => dismissal !== null);
}

/** PUT /api/dismissals: sets a finding aside for the course, with an optional reason. */
export async function dismissFinding(course: CourseKey, fingerprint: string, reason: string): Promise<Dismissal> {
  const body = await apiRequest<unknown>('/api/dismissals', {
    method: 'PUT',
    body: { siteUrl: course.siteUrl, orgUnitId: course.orgUnitId, fingerprint, ...(reason.trim() === '' ? {} : { reason: reason.trim() }) },
  });
  return dismissalOf(body) ?? { fingerprint, by: '', at: new Date().toISOString() };
}

/** DELETE /api/dismissals: the finding counts again from the next report on. */
export async function restoreFinding(course: CourseKey, fingerprint: string): Promise<void> {
  await apiRequest<unknown>(`/api/dismissals?${courseQuery(course, { fingerprint })}`, { method: 'DELETE' });
}
