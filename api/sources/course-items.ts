// Course items: what the readers make of a course for the checks (DESIGN.md, "The engine"). A
// source reads one Brightspace tool and hands each item it read to the engine through its
// context; it never judges one. The engine hands each item to the checks, which never know where
// an item came from.
import type { ReleaseCondition } from '../brightspace/release-conditions.ts';
import type { BrightspaceSession } from '../brightspace/session.ts';
import type { Gradebook, GradedActivity } from '../brightspace/grades.ts';
import type { ActivityKind } from '../brightspace/item-urls.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import type { Dates } from '../brightspace/toc.ts';
import type { DocumentFacts } from '../extract/document-facts.ts';
import type { LinkOccurrence } from '../extract/html.ts';
import type { Message } from '../i18n/messages.ts';
import type { CourseIndex, Lookup } from './course-index.ts';

/**
 * Something the report should say about the run as a whole: a route the site does not offer, a
 * tool this account may not read, release conditions that cannot be read. `key` makes it once.
 */
export interface RunNote {
  key: string;
  message: Message;
}

/** A course item other than a module or topic (an assignment, the gradebook...), for the report. */
export interface CheckedItem {
  place: ItemPlace;
  /** Its page in Brightspace. */
  viewUrl: string | null;
}

/** What a quicklink topic of this course opens, as the course index found it. */
export interface QuicklinkTarget {
  /** The kinds of activity its type may open, the first being the one it names. */
  kinds: readonly ActivityKind[];
  /** The tool item id or quicklink code it names. */
  reference: string;
  /** The quicklink's address, absolute. */
  address: string | null;
  /** Whether students can see the topic (neither it nor a module above it is hidden). */
  visible: boolean;
  /** What the course index says of the activity; never "unknown" (the topic is then read as a topic). */
  lookup: Lookup;
}

export interface CourseItem {
  place: ItemPlace;
  /** Where students see the item (its page): the address of findings about the item as a whole. */
  url: string | null;
  /**
   * The item is a topic itself (its page, its file, its address, or the activity its quicklink
   * opens): counted once among the topics scanned, when its checks have run. A description, a
   * document a page links to, or an activity read course-wide is part of something else.
   */
  isTopic?: true;
  /**
   * HTML to check. A whole page (an HTML file topic) gets every check; a fragment (a description,
   * instructions, an announcement) gets the same checks except those about a whole document.
   */
  html?: { content: string; baseUrl: URL; whole: boolean };
  /**
   * Which part of the item the HTML is, when the item has more than one (a topic's page and its
   * description): kept in the findings' subjects so their fingerprints stay apart.
   */
  part?: string;
  /**
   * Students cannot see the item (a hidden announcement), where the course index cannot tell from
   * its place: a link in it to a hidden item is no student's problem.
   */
  hiddenFromStudents?: true;
  /** Addresses that are the item itself, such as a link topic's target or an assignment's link attachments. */
  links?: LinkOccurrence[];
  /**
   * A document (PDF, Word, PowerPoint) read at `url`: a File topic's own file, or a course file the
   * item's page links to (`linked`), whose findings go on that page's topic.
   */
  document?: { facts: DocumentFacts; linked: boolean };
  /** The item's dates; `course`: also checked against the course offering's dates. */
  dates?: { dates: Dates; course: boolean };
  /** A quicklink topic of this course: the activity it opens. */
  quicklink?: QuicklinkTarget;
  /** The release conditions on the item, as read, and the gradebook's item ids when it was read. */
  conditions?: { conditions: ReleaseCondition[]; gradeItems: ReadonlySet<number> | null };
  /** The gradebook, with every activity that names a grade item. */
  gradebook?: { gradebook: Gradebook; graded: GradedActivity[]; referencesComplete: boolean; courseTitle: string };
  /**
   * An item CTPO cannot read (a tool, a SCORM package, a file that would not download): listed as
   * not scanned with why. `title` when it is not the item's own (a linked document's file name);
   * `opens`: the address it opens, judged for where it leads but never fetched.
   */
  unreadable?: { reason: Message; title?: string; opens?: string };
}

export interface SourceContext {
  session: BrightspaceSession;
  origin: URL;
  orgUnitId: number;
  now: Date;
  signal?: AbortSignal;
  /**
   * The course's items, for links to them. A reader of a tool adds everything it read with
   * `courseIndex.addTool(kind, activities)`, before the run's links are decided.
   */
  courseIndex: CourseIndex;
  /**
   * Hands an item to the checks. Resolves once more may be read (the checks hold a bounded backlog);
   * `done` is called when every check of the item has finished.
   */
  emit(item: CourseItem, done?: () => void): Promise<void>;
  /** A note on the run as a whole (said once per key). */
  note(note: RunNote): void;
  /** How far reading is: the lists of the course ("contents"), then its topics. */
  progress(phase: 'contents' | 'topics', done: number, total: number): void;
}
