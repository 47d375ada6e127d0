// /api/dismissals, with the wire contract: the findings the user set aside for a course.
import { apiRequest } from '@/lib/api-client';
import { dismissalItem, dismissalsAnswer, type DismissalItem, type DismissalRequest } from '@contract';

/** A course as the history knows it: its site and its org unit. */
export interface CourseKey {
  siteUrl: string;
  orgUnitId: number;
}

export type Dismissal = DismissalItem;

const courseQuery = (course: CourseKey, extra: Record<string, string> = {}) =>
  new URLSearchParams({ siteUrl: course.siteUrl, orgUnitId: String(course.orgUnitId), ...extra }).toString();

/** GET /api/dismissals: what the user dismissed for the course (an entry it cannot read is left out). */
export async function listDismissals(course: CourseKey, signal?: AbortSignal): Promise<Dismissal[]> {
  const body = await apiRequest<unknown>(`/api/dismissals?${courseQuery(course)}`, signal ? { signal } : {});
  return dismissalsAnswer.parse(body).dismissals;
}

/** PUT /api/dismissals: sets a finding aside for the course, with an optional reason. */
export async function dismissFinding(course: CourseKey, fingerprint: string, reason: string): Promise<Dismissal> {
  const request = { siteUrl: course.siteUrl, orgUnitId: course.orgUnitId, fingerprint, ...(reason.trim() === '' ? {} : { reason: reason.trim() }) } satisfies DismissalRequest;
  const body = await apiRequest<unknown>('/api/dismissals', { method: 'PUT', body: request });
  const kept = dismissalItem.safeParse(body);
  return kept.success ? kept.data : { fingerprint, by: '', at: new Date().toISOString() };
}

/** DELETE /api/dismissals: the finding counts again from the next report on. */
export async function restoreFinding(course: CourseKey, fingerprint: string): Promise<void> {
  await apiRequest<unknown>(`/api/dismissals?${courseQuery(course, { fingerprint })}`, { method: 'DELETE' });
}
