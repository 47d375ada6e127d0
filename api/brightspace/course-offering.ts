// The course offering (lp courses/{orgUnitId}): its name, and the start and end dates every other
// date of the course should fall within; read beside the table of contents.
import { AppError } from '../errors.ts';
import { msg } from '../i18n/messages.ts';
import type { BrightspaceSession } from './session.ts';
import type { TocResponse } from './types.ts';
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

export interface CourseOutline {
  toc: TocResponse;
  /** Null when this account may not read the offering (its dates are then unknown). */
  offering: CourseOffering | null;
  /** When the course's access window closed, if it has (the usual reason for a 403 on its routes). */
  accessEndedOn: Date | null;
}

/**
 * The table of contents and the course offering, read together. A 403 on the table of contents
 * after the course's end date gets that reason, which the user can act on.
 */
export async function readCourseOutline(session: BrightspaceSession, orgUnitId: number, now: Date): Promise<CourseOutline> {
  const offeringReading = readCourseOffering(session, orgUnitId).catch(() => null);
  try {
    const toc = await session.getToc(orgUnitId);
    const reading = await offeringReading;
    const offering = reading?.ok ? reading.value : null;
    return { toc, offering, accessEndedOn: endedBy(offering, now) };
  } catch (error) {
    const reading = await offeringReading;
    const ended = endedBy(reading?.ok ? reading.value : null, now);
    if (error instanceof AppError && error.code === 'course_forbidden' && ended !== null) {
      throw new AppError('course_forbidden', msg('error.site.course-access-ended', { orgUnitId: String(orgUnitId), end: ended.toISOString().slice(0, 10) }), { cause: error });
    }
    throw error;
  }
}

function endedBy(offering: CourseOffering | null, now: Date): Date | null {
  return offering?.end != null && offering.end < now ? offering.end : null;
}
