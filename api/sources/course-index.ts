// The one index of what the course is: its modules, topics and topic files (from the whole
// course's table of contents, not only the modules under test) and the activities its tools hold,
// as their readers add them. It answers what an address or a quicklink opens: present, hidden from
// students, missing, or unknown. A tool that was not read answers "unknown", never "missing", so
// nothing is reported from what was not read.
import type { ActivityKind, InternalTarget } from '../brightspace/item-urls.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import { activityCode } from '../brightspace/valence-fields.ts';
import type { TocModule, TocResponse, TocTopic } from '../brightspace/types.ts';

/** What the course knows about a target. */
export type TargetState = 'present' | 'hidden' | 'missing' | 'unknown';

/** An activity as its tool's reader saw it. */
export interface IndexedActivity {
  kind: ActivityKind;
  id: number;
  title: string;
  /** Hidden from students (IsHidden, an inactive quiz, a topic of a hidden forum). */
  hidden: boolean;
  /** The code its quicklinks carry as `rcode` (the tail of its ActivityId). */
  code: string | null;
  /** Its page in Brightspace. */
  viewUrl: string;
}

/** What the index says of a target; `activity` when the target is a known activity. */
export interface Lookup {
  state: TargetState;
  title?: string;
  /** A topic's file, for a fragment link through its viewer page. */
  fileUrl?: string;
  activity?: IndexedActivity;
}

interface IndexedItem {
  title: string;
  hidden: boolean;
  url?: string;
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path).toLowerCase();
  } catch {
    return path.toLowerCase();
  }
}

const UNKNOWN: Lookup = { state: 'unknown' };
const MISSING: Lookup = { state: 'missing' };

export class CourseIndex {
  readonly #topics = new Map<number, IndexedItem>();
  readonly #modules = new Map<number, IndexedItem>();
  /** Topic files by decoded, lower-cased path: hidden only when every topic using the file is. */
  readonly #files = new Map<string, IndexedItem>();
  /** Topics by their code; null when some topic has none, so a missing code proves nothing. */
  readonly #topicCodes: Map<string, IndexedItem> | null;
  readonly #read = new Set<ActivityKind>();
  readonly #byId = new Map<string, IndexedActivity>();
  readonly #byCode = new Map<string, IndexedActivity>();

  constructor(toc: TocResponse) {
    const byCode = new Map<string, IndexedItem>();
    let everyTopicHasCode = true;
    const walk = (module: TocModule, hiddenAbove: boolean) => {
      const hidden = hiddenAbove || module.IsHidden === true;
      this.#modules.set(module.ModuleId, { title: module.Title, hidden });
      for (const topic of module.Topics ?? []) {
        const item = this.#addTopic(topic, hidden);
        const code = activityCode(typeof topic.ActivityId === 'string' ? topic.ActivityId.trim() : null);
        if (code === null) everyTopicHasCode = false;
        else byCode.set(code.toLowerCase(), item);
      }
      for (const child of module.Modules ?? []) walk(child, hidden);
    };
    for (const module of toc.Modules) walk(module, false);
    // Content quicklinks name topics by code; only a table of contents that gives every topic's
    // ActivityId can say one is missing.
    this.#topicCodes = this.#topics.size > 0 && everyTopicHasCode ? byCode : null;
  }

  #addTopic(topic: TocTopic, moduleHidden: boolean): IndexedItem {
    const item: IndexedItem = { title: topic.Title, hidden: moduleHidden || topic.IsHidden === true };
    const url = typeof topic.Url === 'string' ? topic.Url.trim() : '';
    if (url.startsWith('/content/')) {
      item.url = url;
      const key = decodedPath(url.split(/[?#]/)[0]!);
      const existing = this.#files.get(key);
      this.#files.set(key, existing === undefined ? { ...item } : { ...existing, hidden: existing.hidden && item.hidden });
    }
    this.#topics.set(topic.TopicId, item);
    return item;
  }

  /**
   * Every activity of one tool, as its reader read them. Call it once per tool with all its items:
   * from then on, an id or code of that tool that is not among them is missing.
   */
  addTool(kind: ActivityKind, activities: readonly IndexedActivity[]): void {
    this.#read.add(kind);
    for (const activity of activities) {
      this.#byId.set(`${kind}:${activity.id}`, activity);
      if (activity.code !== null) this.#byCode.set(`${kind}:${activity.code.toLowerCase()}`, activity);
    }
  }

  /** Whether a tool's activities were read. */
  isRead(kind: ActivityKind): boolean {
    return this.#read.has(kind);
  }

  /** An activity by its id in the first of the tools that has it. */
  activityById(kinds: readonly ActivityKind[], id: number): Lookup {
    for (const kind of kinds) {
      const activity = this.#byId.get(`${kind}:${id}`);
      if (activity !== undefined) return found(activity);
    }
    return this.#notFound(kinds);
  }

  /** An activity by the code its quicklinks carry, over the tools a quicklink of its type may open. */
  activityByCode(kinds: readonly ActivityKind[], code: string): Lookup {
    for (const kind of kinds) {
      const activity = this.#byCode.get(`${kind}:${code.toLowerCase()}`);
      if (activity !== undefined) return found(activity);
    }
    return this.#notFound(kinds);
  }

  /** Missing only when every tool that could hold it was read; a tool CTPO does not read knows nothing. */
  #notFound(kinds: readonly ActivityKind[]): Lookup {
    return kinds.length > 0 && kinds.every((kind) => this.#read.has(kind)) ? MISSING : UNKNOWN;
  }

  /** What the course knows about a target, and the title of the item when it exists. */
  lookup(target: InternalTarget): Lookup {
    switch (target.kind) {
      case 'topic':
        return itemLookup(this.#topics.get(target.id));
      case 'module':
        return itemLookup(this.#modules.get(target.id));
      case 'topic-code':
        return this.#topicCodes === null ? UNKNOWN : itemLookup(this.#topicCodes.get(target.code.toLowerCase()));
      case 'file': {
        // A course file may be an image or a handout rather than a topic: only a hidden topic's
        // file says something; whether the file exists is for the request to tell.
        const item = this.#files.get(decodedPath(target.path));
        return item === undefined || !item.hidden ? UNKNOWN : itemLookup(item);
      }
      case 'activity':
        if (target.id !== undefined) return this.activityById(target.kinds, target.id);
        if (target.code !== undefined) return this.activityByCode(target.kinds, target.code);
        return UNKNOWN;
    }
  }

  /**
   * Whether students cannot see a place at all: its topic or module is hidden (or sits in a hidden
   * module), or it is an activity hidden from them. A link there is not one a student can follow.
   */
  hiddenFromStudents(place: ItemPlace): boolean {
    if (place.topicId !== null && this.#topics.get(place.topicId)?.hidden === true) return true;
    if (place.moduleId !== null && this.#modules.get(place.moduleId)?.hidden === true) return true;
    const { itemType, itemId } = place;
    if (itemId === null) return false;
    if (itemType === 'assignment' || itemType === 'quiz' || itemType === 'discussion-forum' || itemType === 'discussion-topic') {
      return this.#byId.get(`${itemType}:${itemId}`)?.hidden === true;
    }
    return false;
  }

  /** Whether a topic is in the course (any module, tested or not). */
  hasTopic(topicId: number): boolean {
    return this.#topics.has(topicId);
  }
}

function found(activity: IndexedActivity): Lookup {
  return { state: activity.hidden ? 'hidden' : 'present', title: activity.title, activity };
}

function itemLookup(item: IndexedItem | undefined): Lookup {
  if (item === undefined) return MISSING;
  return { state: item.hidden ? 'hidden' : 'present', title: item.title, ...(item.url ? { fileUrl: item.url } : {}) };
}
