// Discussions (discussions/forums/ and .../forums/{id}/topics/, bare arrays): descriptions, dates and
// visibility. Neither carries a grade item: the grade item points at the topic instead.
import type { BrightspaceSession } from './session.ts';
import { readListOf, type Reading } from './reading.ts';
import { activityCode, boolField, dateField, idField, isRecord, richTextHtml, textField, type RawRecord } from './valence-fields.ts';

export interface Forum {
  id: number;
  name: string;
  description: string;
  hidden: boolean;
  start: Date | null;
  end: Date | null;
  raw: RawRecord;
}

export interface DiscussionTopic {
  id: number;
  forumId: number;
  name: string;
  description: string;
  hidden: boolean;
  start: Date | null;
  end: Date | null;
  due: Date | null;
  activityId: string | null;
  code: string | null;
  raw: RawRecord;
}

export function parseForum(raw: unknown): Forum | null {
  if (!isRecord(raw)) return null;
  const id = idField(raw.ForumId ?? raw.Id);
  if (id === null) return null;
  return {
    id,
    name: textField(raw.Name) ?? '',
    description: richTextHtml(raw.Description),
    hidden: boolField(raw.IsHidden) ?? false,
    start: dateField(raw.StartDate),
    end: dateField(raw.EndDate),
    raw,
  };
}

export function parseDiscussionTopic(raw: unknown, forumId: number): DiscussionTopic | null {
  if (!isRecord(raw)) return null;
  const id = idField(raw.TopicId ?? raw.Id);
  if (id === null) return null;
  const activityId = textField(raw.ActivityId);
  return {
    id,
    forumId: idField(raw.ForumId) ?? forumId,
    name: textField(raw.Name) ?? '',
    description: richTextHtml(raw.Description),
    hidden: boolField(raw.IsHidden) ?? false,
    start: dateField(raw.StartDate),
    end: dateField(raw.EndDate),
    due: dateField(raw.DueDate),
    activityId,
    code: activityCode(activityId),
    raw,
  };
}

export function readForums(session: BrightspaceSession, orgUnitId: number): Promise<Reading<Forum[]>> {
  return readListOf(session, session.leUrl(orgUnitId, 'discussions/forums/'), parseForum);
}

export function readForumTopics(session: BrightspaceSession, orgUnitId: number, forumId: number): Promise<Reading<DiscussionTopic[]>> {
  return readListOf(session, session.leUrl(orgUnitId, `discussions/forums/${forumId}/topics/`), (raw) => parseDiscussionTopic(raw, forumId));
}
