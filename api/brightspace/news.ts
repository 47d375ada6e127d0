// Announcements (news/, a bare array) and the course overview (overview): the HTML students read on
// the course home page.
import type { BrightspaceSession } from './session.ts';
import { readListOf, readOneOf, type Reading } from './reading.ts';
import { boolField, dateField, idField, isRecord, richTextHtml, textField, type RawRecord } from './valence-fields.ts';

export interface Announcement {
  id: number;
  title: string;
  body: string;
  /** Hidden, or a draft not yet published. */
  hidden: boolean;
  start: Date | null;
  end: Date | null;
  raw: RawRecord;
}

export interface Overview {
  description: string;
  hasAttachment: boolean;
  raw: RawRecord;
}

export function parseNewsItem(raw: unknown): Announcement | null {
  if (!isRecord(raw)) return null;
  const id = idField(raw.Id);
  if (id === null) return null;
  return {
    id,
    title: textField(raw.Title) ?? '',
    body: richTextHtml(raw.Body),
    hidden: boolField(raw.IsHidden) === true || boolField(raw.IsPublished) === false,
    start: dateField(raw.StartDate),
    end: dateField(raw.EndDate),
    raw,
  };
}

export function parseOverview(raw: unknown): Overview | null {
  if (!isRecord(raw)) return null;
  return { description: richTextHtml(raw.Description), hasAttachment: boolField(raw.HasAttachment) ?? false, raw };
}

export function readAnnouncements(session: BrightspaceSession, orgUnitId: number): Promise<Reading<Announcement[]>> {
  return readListOf(session, session.leUrl(orgUnitId, 'news/'), parseNewsItem);
}

export function readOverview(session: BrightspaceSession, orgUnitId: number): Promise<Reading<Overview>> {
  return readOneOf(session, session.leUrl(orgUnitId, 'overview'), parseOverview);
}
