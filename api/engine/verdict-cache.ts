// Where one course's verdicts are kept between runs (issue: re-check only what changed). Holds
// digests, findings and link answers only: never a credential, a cookie or a session value.
export interface VerdictCacheScope {
  /** The Brightspace site's origin, e.g. https://school.brightspace.com */
  site: string;
  orgUnitId: number;
}
/** What the engine kept of one item's verdict: `value` is plain JSON the engine alone reads. */
export interface CachedVerdict {
  digest: string;
  /** ISO time the item was checked (not when it was reused). */
  checkedAt: string;
  value: unknown;
}
/** One link's last answer: reused only while young and good (the engine decides). */
export interface CachedLink {
  checkedAt: string;
  value: unknown;
}
export interface CourseVerdicts {
  /** By the engine's item key (type, id, and what else makes it one item of the course). */
  items: Map<string, CachedVerdict>;
  /** By the link's address. */
  links: Map<string, CachedLink>;
}
export interface VerdictCache {
  /** Everything kept for one course (empty maps when nothing is). */
  load(scope: VerdictCacheScope): Promise<CourseVerdicts>;
  /** Keeps what this run checked now, each entry replacing the item's or link's earlier one; the
   * store enforces its size cap and expiry here. */
  save(scope: VerdictCacheScope, checked: CourseVerdicts): Promise<void>;
}

/**
 * Items kept per course. The 300-topic bench course has about 400 items (topics, descriptions,
 * activities, documents, frame pages); five times that leaves room for the largest courses seen
 * without letting one course fill the store.
 */
export const MAX_ITEMS_PER_COURSE = 2_000;
/**
 * Link answers kept per course, counted apart from items: the bench course has 7 876 links, and a
 * link answer is small (a status and a few fields).
 */
export const MAX_LINKS_PER_COURSE = 20_000;
/**
 * Bytes of one stored value (JSON). A page's findings with their snippets and the list of resources
 * it loaded stay well below this; a larger value is not kept (the item is simply checked next run),
 * and the limit keeps each value inside one DynamoDB item (400 KB) with room for the keys.
 */
export const MAX_VALUE_BYTES = 300_000;
/**
 * Courses kept by the local store: the least recently written course goes first. The store on AWS
 * keeps no such cap (a run may reach only its own course there): its courses are bounded by the
 * expiry below.
 */
export const MAX_COURSES = 500;
/**
 * Entries not written for this many days are dropped: a course not run for two months is past its
 * launch loop, and a verdict that old saves little.
 */
export const EXPIRY_DAYS = 60;
export const EXPIRY_MS = EXPIRY_DAYS * 24 * 60 * 60 * 1000;

/** An empty set of verdicts (what a store returns for a course it does not hold). */
export function emptyCourseVerdicts(): CourseVerdicts {
  return { items: new Map(), links: new Map() };
}
