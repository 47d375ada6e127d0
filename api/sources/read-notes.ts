// Turns a reader's failure into a note for the report: what was not checked and why, in words the
// user can act on (an older site, a tool turned off, a role that may not read it, a course whose
// access window has closed). One note per route and reason.
import type { ReadFailure, Reading } from '../brightspace/reading.ts';
import { msg } from '../i18n/messages.ts';
import type { SourceContext } from './course-items.ts';

/** What was not read, as the notes' `what` select value. */
export type ReadSubject = 'content' | 'assignments' | 'quizzes' | 'discussions' | 'announcements' | 'overview' | 'gradebook' | 'course';

export function noteFailure(ctx: SourceContext, what: ReadSubject, failure: ReadFailure, accessEndedOn: Date | null): void {
  const key = `read:${what}:${failure.problem}`;
  switch (failure.problem) {
    case 'not-offered':
      return ctx.note({ key, message: msg('note.route.not-offered', { what, status: failure.status }) });
    case 'forbidden':
      return ctx.note({
        key,
        message: accessEndedOn === null
          ? msg('note.route.forbidden', { what, status: failure.status })
          : msg('note.route.forbidden-closed', { what, end: accessEndedOn.toISOString().slice(0, 10) }),
      });
    case 'unreadable':
      return ctx.note({ key, message: msg('note.route.unreadable', { what }) });
    case 'failed':
      return ctx.note({ key, message: msg('note.route.failed', { what, status: failure.status }) });
  }
}

/** The value of a reading, noting a failure or skipped entries; null when nothing was read. */
export function valueOf<T>(ctx: SourceContext, what: ReadSubject, reading: Reading<T>, accessEndedOn: Date | null): T | null {
  if (!reading.ok) {
    noteFailure(ctx, what, reading.failure, accessEndedOn);
    return null;
  }
  if (reading.skipped > 0) ctx.note({ key: `skipped:${what}`, message: msg('note.route.skipped', { what, count: reading.skipped }) });
  return reading.value;
}
