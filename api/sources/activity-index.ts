// What the course's assignments, quizzes and discussions are, as read from their tools: which
// exist and which students can see, found by id or by the code quicklinks carry. A tool CTPO did
// not read answers "unknown", never "missing", so nothing is reported from what was not read.
export type ActivityKind = 'assignment' | 'quiz' | 'discussion-forum' | 'discussion-topic';

export interface IndexedActivity {
  kind: ActivityKind;
  id: number;
  title: string;
  hidden: boolean;
  /** The tail of its ActivityId, which quicklinks carry as `rcode`. */
  code: string | null;
  viewUrl: string;
}

export type ActivityLookup = { state: 'unknown' } | { state: 'missing' } | { state: 'found'; activity: IndexedActivity };

/** Quicklink `type=` values and the kinds of item they open. */
export const QUICKLINK_KINDS: Record<string, ActivityKind[]> = {
  dropbox: ['assignment'],
  quiz: ['quiz'],
  discuss: ['discussion-topic', 'discussion-forum'],
};

/** Content activity types (ToC ActivityType) that open a tool item. */
export const ACTIVITY_TYPE_KINDS: Record<number, ActivityKind> = { 3: 'assignment', 4: 'quiz', 5: 'discussion-forum', 6: 'discussion-topic' };

export class ActivityIndex {
  readonly #read = new Set<ActivityKind>();
  readonly #byId = new Map<string, IndexedActivity>();
  readonly #byCode = new Map<string, IndexedActivity>();

  /** Records every item of a tool: from now on an id not among them is missing. */
  addTool(kind: ActivityKind, activities: IndexedActivity[]): void {
    this.#read.add(kind);
    for (const activity of activities) {
      this.#byId.set(`${kind}:${activity.id}`, activity);
      if (activity.code !== null) this.#byCode.set(`${kind}:${activity.code.toLowerCase()}`, activity);
    }
  }

  isRead(kind: ActivityKind): boolean {
    return this.#read.has(kind);
  }

  byId(kind: ActivityKind, id: number): ActivityLookup {
    if (!this.#read.has(kind)) return { state: 'unknown' };
    const activity = this.#byId.get(`${kind}:${id}`);
    return activity === undefined ? { state: 'missing' } : { state: 'found', activity };
  }

  /** By quicklink code, over the kinds a quicklink type may open. */
  byCode(kinds: ActivityKind[], code: string): ActivityLookup {
    for (const kind of kinds) {
      const activity = this.#byCode.get(`${kind}:${code.toLowerCase()}`);
      if (activity !== undefined) return { state: 'found', activity };
    }
    return kinds.every((kind) => this.#read.has(kind)) ? { state: 'missing' } : { state: 'unknown' };
  }

  /** Every indexed activity, in the order read. */
  all(): IndexedActivity[] {
    return [...this.#byId.values()];
  }
}

export interface Quicklink {
  type: string;
  code: string | null;
  orgUnitId: number | null;
}

/** A Brightspace quicklink (`/d2l/common/dialogs/quickLink/quickLink.d2l?ou=&type=&rcode=`). */
export function parseQuicklink(address: string, base: URL): Quicklink | null {
  let url: URL;
  try {
    url = new URL(address, base);
  } catch {
    return null;
  }
  if (!/\/d2l\/common\/dialogs\/quicklink\/quicklink\.d2l$/i.test(url.pathname)) return null;
  const param = (name: string) => [...url.searchParams].find(([key]) => key.toLowerCase() === name)?.[1] ?? null;
  const ou = param('ou');
  return { type: (param('type') ?? '').toLowerCase(), code: param('rcode'), orgUnitId: ou !== null && /^\d{1,15}$/.test(ou) ? Number(ou) : null };
}
