// Course items: what the readers make of a course for the checks (DESIGN.md, "The engine"). A
// source reads one kind of thing (topic pages, documents, activities) and hands each item to the
// checks through its context; the checks never know where an item came from.
import type { BrightspaceSession } from '../brightspace/session.ts';
import type { DocumentFacts } from '../extract/document-facts.ts';
import type { Finding, FindingPlace, NotScanned } from '../checks/finding.ts';
import type { CourseIndex } from '../checks/internal-links.ts';
import type { LinkOccurrence } from '../extract/html.ts';
import type { RunPhase } from '../engine/progress.ts';
import type { Message } from '../i18n/messages.ts';

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
  place: FindingPlace;
  /** Its page in Brightspace. */
  viewUrl: string | null;
}

export interface CourseItem {
  place: FindingPlace;
  /** Where students see the item (its page): the address of findings about the item as a whole. */
  url: string | null;
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
  /** Addresses that are the item itself, such as a link topic's target. */
  links?: LinkOccurrence[];
  /**
   * A document (PDF, Word, PowerPoint) read at `url`: a File topic's own file, or a course file the
   * item's page links to (`linked`), whose findings go on that page's topic.
   */
  document?: { facts: DocumentFacts; linked: boolean };
}

export interface SourceContext {
  session: BrightspaceSession;
  origin: URL;
  orgUnitId: number;
  now: Date;
  signal?: AbortSignal;
  /**
   * The course's items, for links to them. A reader of activities adds everything it read for a
   * tool with `courseIndex.addActivities(tool, entries)`, before the run's links are decided.
   */
  courseIndex: CourseIndex;
  /**
   * Hands an item to the checks. Resolves once more may be read (the checks hold a bounded backlog);
   * `done` is called when every check of the item has finished.
   */
  check(item: CourseItem, done?: () => void): Promise<void>;
  /** Findings a source makes itself, from what it read (dates, a quicklink into another course). */
  addFindings(findings: Finding[]): void;
  /** Something that could not be read, and why. */
  notScanned(entry: NotScanned): void;
  /** A note on the run as a whole (said once per key). */
  note(note: RunNote): void;
  progress(phase: RunPhase, done: number, total: number): void;
}

/** Runs work over items, at most `limit` at once, stopping when the signal aborts. */
export async function forEachLimited<T>(items: readonly T[], limit: number, signal: AbortSignal | undefined, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      await work(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
