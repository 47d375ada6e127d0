// The course offering (lp courses/{orgUnitId}): its name, and the start and end dates every other
// date of the course should fall within.
import type { BrightspaceSession } from './session.ts';
import { readOneOf, type Reading } from './reading.ts';
import { boolField, dateField, isRecord, textField, type RawRecord } from './valence-fields.ts';

export interface CourseOffering {
  name: string | null;
  code: string | null;
  start: Date | null;
  end: Date | null;
  isActive: boolean | null;
  raw: RawRecord;
}

export function parseCourseOffering(raw: unknown): CourseOffering | null {
  if (!isRecord(raw)) return null;
  return {
    name: textField(raw.Name),
    code: textField(raw.Code),
    start: dateField(raw.StartDate),
    end: dateField(raw.EndDate),
    isActive: boolField(raw.IsActive),
    raw,
  };
}

export function readCourseOffering(session: BrightspaceSession, orgUnitId: number): Promise<Reading<CourseOffering>> {
  return readOneOf(session, session.lpUrl(`courses/${orgUnitId}`), parseCourseOffering);
}
