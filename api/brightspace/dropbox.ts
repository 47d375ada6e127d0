// Assignments (dropbox/folders/, a bare array): instructions, link attachments, availability and
// due dates, the grade item, and whether students see the folder.
import type { BrightspaceSession } from './session.ts';
import { readListOf, type Reading } from './reading.ts';
import { activityCode, boolField, dateField, idField, isRecord, richTextHtml, textField, type RawRecord } from './valence-fields.ts';

export interface Assignment {
  id: number;
  name: string;
  instructions: string;
  hidden: boolean;
  start: Date | null;
  end: Date | null;
  due: Date | null;
  gradeItemId: number | null;
  activityId: string | null;
  /** The `rcode` quicklinks to this folder carry. */
  code: string | null;
  linkAttachments: { name: string; href: string }[];
  raw: RawRecord;
}

export function parseDropboxFolder(raw: unknown): Assignment | null {
  if (!isRecord(raw)) return null;
  const id = idField(raw.Id);
  if (id === null) return null;
  const availability = isRecord(raw.Availability) ? raw.Availability : {};
  const links = Array.isArray(raw.LinkAttachments) ? raw.LinkAttachments : [];
  const activityId = textField(raw.ActivityId);
  const gradeItemId = idField(raw.GradeItemId);
  return {
    id,
    name: textField(raw.Name) ?? '',
    instructions: richTextHtml(raw.CustomInstructions),
    hidden: boolField(raw.IsHidden) ?? false,
    start: dateField(availability.StartDate),
    end: dateField(availability.EndDate),
    due: dateField(raw.DueDate),
    gradeItemId: gradeItemId === 0 ? null : gradeItemId,
    activityId,
    code: activityCode(activityId),
    linkAttachments: links.flatMap((link) => {
      if (!isRecord(link) || typeof link.Href !== 'string' || link.Href.trim() === '') return [];
      return [{ name: textField(link.LinkName) ?? '', href: link.Href.trim() }];
    }),
    raw,
  };
}

export function readAssignments(session: BrightspaceSession, orgUnitId: number): Promise<Reading<Assignment[]>> {
  return readListOf(session, session.leUrl(orgUnitId, 'dropbox/folders/'), parseDropboxFolder);
}
