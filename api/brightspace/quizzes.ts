// Quizzes (quizzes/, an ObjectListPage): the four rich-text blocks students may see (description,
// instructions, header, footer), the dates, the grade item, and whether the quiz is active.
import type { BrightspaceSession } from './session.ts';
import { readListOf, type Reading } from './reading.ts';
import { activityCode, boolField, dateField, idField, isRecord, quizRichTextHtml, textField, type RawRecord } from './valence-fields.ts';

export interface Quiz {
  id: number;
  name: string;
  /** The blocks shown to students (IsDisplayed), in the order a student meets them. */
  texts: { block: 'description' | 'instructions' | 'header' | 'footer'; html: string }[];
  /** An inactive quiz is not available to students. */
  hidden: boolean;
  start: Date | null;
  end: Date | null;
  due: Date | null;
  gradeItemId: number | null;
  activityId: string | null;
  code: string | null;
  raw: RawRecord;
}

const BLOCKS = [
  ['description', 'Description'],
  ['instructions', 'Instructions'],
  ['header', 'Header'],
  ['footer', 'Footer'],
] as const;

export function parseQuiz(raw: unknown): Quiz | null {
  if (!isRecord(raw)) return null;
  const id = idField(raw.QuizId ?? raw.Id);
  if (id === null) return null;
  const activityId = textField(raw.ActivityId);
  const gradeItemId = idField(raw.GradeItemId);
  return {
    id,
    name: textField(raw.Name) ?? '',
    texts: BLOCKS.flatMap(([block, field]) => {
      const text = quizRichTextHtml(raw[field]);
      return text.displayed && text.html.trim() !== '' ? [{ block, html: text.html }] : [];
    }),
    hidden: boolField(raw.IsActive) === false,
    start: dateField(raw.StartDate),
    end: dateField(raw.EndDate),
    due: dateField(raw.DueDate),
    gradeItemId: gradeItemId === 0 ? null : gradeItemId,
    activityId,
    code: activityCode(activityId),
    raw,
  };
}

export function readQuizzes(session: BrightspaceSession, orgUnitId: number): Promise<Reading<Quiz[]>> {
  return readListOf(session, session.leUrl(orgUnitId, 'quizzes/'), parseQuiz);
}
