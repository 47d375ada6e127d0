// What every activity tool's reader makes of its items, so the run treats an assignment, a quiz, a
// forum and a discussion topic alike: where it is, what students read in it, its dates, the grade
// item it feeds, and whose release conditions to read.
import type { CourseScope } from '../brightspace/course-scopes.ts';
import type { ItemUrls } from '../brightspace/item-urls.ts';
import type { ConditionOwner } from '../brightspace/release-conditions.ts';
import type { Dates } from '../brightspace/toc.ts';
import type { LinkOccurrence } from '../extract/html.ts';
import type { IndexedActivity } from './course-index.ts';
import type { SourceContext } from './course-items.ts';

export interface ActivityRecord {
  activity: IndexedActivity;
  /** The course-wide scope that reads every item of its tool. */
  scope: CourseScope;
  /** What students read in it (instructions, descriptions), as one HTML fragment. */
  html: string;
  dates: Dates;
  /** Addresses it carries besides its HTML (an assignment's link attachments). */
  links: LinkOccurrence[];
  gradeItemId: number | null;
  /** Whose release conditions to read; null where the tool keeps none (a forum's are on its topics). */
  conditionOwner: ConditionOwner | null;
}

/** What a tool's reader needs besides the session: addresses, pacing and the reading phase's progress. */
export interface ToolReading {
  ctx: SourceContext;
  urls: ItemUrls;
  /** When the course's access window closed, if it has: the reason behind a 403. */
  accessEndedOn: Date | null;
  /** Requests to the site at once. */
  concurrency: number;
  /** Counts a request done, for the progress of the reading phase. */
  counted<T>(reading: Promise<T>): Promise<T>;
  /** Says how many more requests to expect. */
  planned(count: number): void;
}
