// Links to the course's own content and activities, decided from what the course is rather than by
// a request: a link to a topic or module that is not in the table of contents is missing; one to an
// item hidden from students is hidden. The index is built from the whole course's table of
// contents (not only the modules under test), and activity readers add what they read
// (assignments, quizzes, discussions...) with `addActivities`; until a tool's items are added, links
// to that tool answer "unknown" and are checked over HTTP like any other address.
import type { TocModule, TocResponse, TocTopic } from '../brightspace/types.ts';
import { msg } from '../i18n/messages.ts';
import { finding } from './catalogue.ts';
import type { Finding, FindingPlace } from './finding.ts';
import type { LinkOccurrence } from '../extract/html.ts';
import { linkDetails } from './links.ts';

/** What the course knows about a link's target. */
export type TargetState = 'present' | 'hidden' | 'missing' | 'unknown';

/**
 * Activity tools as quicklinks name them (`quickLink.d2l?type=...`), plus `discuss-forum` for a
 * forum's own page. `content` is a content topic addressed by its rcode.
 */
export const ACTIVITY_TOOLS = ['quiz', 'dropbox', 'discuss', 'discuss-forum', 'checklist', 'survey', 'selfassess', 'content'] as const;
export type ActivityTool = (typeof ACTIVITY_TOOLS)[number];

/** One activity as its reader saw it: its id in its tool, its rcode (the tail of its ActivityId). */
export interface ActivityEntry {
  id?: number;
  rcode?: string;
  title: string;
  /** Hidden from students (IsHidden, or not active for a quiz). */
  hidden: boolean;
}

/** Where a link of this course leads, when it is one of Brightspace's own item addresses. */
export type InternalTarget =
  | { kind: 'topic'; id: number }
  | { kind: 'module'; id: number }
  | { kind: 'activity'; tool: ActivityTool; id?: number; rcode?: string }
  | { kind: 'file'; path: string };

interface IndexedItem {
  title: string;
  hidden: boolean;
  /** The topic's file, for a fragment link through its viewer page. */
  url?: string;
}

/** The rcode a quicklink uses for an item: the last part of its ActivityId. */
export function rcodeOf(activityId: unknown): string | undefined {
  if (typeof activityId !== 'string' || activityId.trim() === '') return undefined;
  const tail = activityId.trim().split('/').pop();
  return tail === undefined || tail === '' ? undefined : tail.toLowerCase();
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path).toLowerCase();
  } catch {
    return path.toLowerCase();
  }
}

export class CourseIndex {
  readonly #topics = new Map<number, IndexedItem>();
  readonly #modules = new Map<number, IndexedItem>();
  /** Topic files by decoded, lower-cased path: hidden only when every topic using the file is. */
  readonly #files = new Map<string, IndexedItem>();
  readonly #activities = new Map<ActivityTool, { byId: Map<number, IndexedItem>; byRcode: Map<string, IndexedItem> }>();

  constructor(toc: TocResponse) {
    const contentByRcode = new Map<string, IndexedItem>();
    let everyTopicHasRcode = true;
    const walk = (module: TocModule, hiddenAbove: boolean) => {
      const hidden = hiddenAbove || module.IsHidden === true;
      this.#modules.set(module.ModuleId, { title: module.Title, hidden });
      for (const topic of module.Topics ?? []) this.#addTopic(topic, hidden, contentByRcode, () => (everyTopicHasRcode = false));
      for (const child of module.Modules ?? []) walk(child, hidden);
    };
    for (const module of toc.Modules) walk(module, false);
    // Content quicklinks name topics by rcode; only a table of contents that gives every topic's
    // ActivityId can say one is missing.
    if (this.#topics.size > 0 && everyTopicHasRcode) this.#activities.set('content', { byId: new Map(), byRcode: contentByRcode });
  }

  #addTopic(topic: TocTopic, moduleHidden: boolean, byRcode: Map<string, IndexedItem>, noRcode: () => void): void {
    const item: IndexedItem = { title: topic.Title, hidden: moduleHidden || topic.IsHidden === true };
    const url = typeof topic.Url === 'string' ? topic.Url.trim() : '';
    if (url.startsWith('/content/')) {
      item.url = url;
      const key = decodedPath(url.split(/[?#]/)[0]!);
      const existing = this.#files.get(key);
      this.#files.set(key, existing === undefined ? { ...item } : { ...existing, hidden: existing.hidden && item.hidden });
    }
    this.#topics.set(topic.TopicId, item);
    const rcode = rcodeOf(topic.ActivityId);
    if (rcode === undefined) noRcode();
    else byRcode.set(rcode, item);
  }

  /**
   * Everything an activity reader found for one tool. Call it once per tool with all its items:
   * from then on, an id or rcode of that tool that is not among them is missing.
   */
  addActivities(tool: ActivityTool, entries: ActivityEntry[]): void {
    const known = this.#activities.get(tool) ?? { byId: new Map<number, IndexedItem>(), byRcode: new Map<string, IndexedItem>() };
    for (const entry of entries) {
      const item = { title: entry.title, hidden: entry.hidden };
      if (entry.id !== undefined) known.byId.set(entry.id, item);
      if (entry.rcode !== undefined) known.byRcode.set(entry.rcode.toLowerCase(), item);
    }
    this.#activities.set(tool, known);
  }

  /** What the course knows about a target, and the title of the item when it exists. */
  lookup(target: InternalTarget): { state: TargetState; title?: string; fileUrl?: string } {
    let item: IndexedItem | undefined;
    switch (target.kind) {
      case 'topic':
        item = this.#topics.get(target.id);
        break;
      case 'module':
        item = this.#modules.get(target.id);
        break;
      case 'file':
        // A course file may be an image or a handout rather than a topic: only a hidden topic's
        // file says something; whether the file exists is for the request to tell.
        item = this.#files.get(decodedPath(target.path));
        if (item === undefined || !item.hidden) return { state: 'unknown' };
        break;
      case 'activity': {
        const known = this.#activities.get(target.tool);
        if (known === undefined) return { state: 'unknown' };
        item = target.id !== undefined ? known.byId.get(target.id) : target.rcode !== undefined ? known.byRcode.get(target.rcode.toLowerCase()) : undefined;
        if (item === undefined && target.id === undefined && target.rcode === undefined) return { state: 'unknown' };
        break;
      }
    }
    if (item === undefined) return { state: 'missing' };
    return { state: item.hidden ? 'hidden' : 'present', title: item.title, ...(item.url ? { fileUrl: item.url } : {}) };
  }
}

const QUICKLINK = /^\/d2l\/common\/dialogs\/quicklink\/quicklink\.d2l$/i;
const TOOL_OF_QUICKLINK: Record<string, ActivityTool> = {
  quiz: 'quiz',
  dropbox: 'dropbox',
  discuss: 'discuss',
  checklist: 'checklist',
  survey: 'survey',
  selfassess: 'selfassess',
  content: 'content',
};

function parameter(url: URL, name: string): string | undefined {
  for (const [key, value] of url.searchParams) if (key.toLowerCase() === name) return value;
  return undefined;
}

function id(value: string | undefined): number | undefined {
  return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/**
 * The item of this course an address opens, when it is one of Brightspace's own item addresses on
 * the course's site: content viewer and lessons pages, quicklinks (`rcode` or `rCode`), the
 * quiz, assignment and discussion pages, and course files. Null for anything else, including
 * addresses into other org units (those are `link.cross-course`).
 */
export function internalTargetOf(url: URL, origin: URL, orgUnitId: number): InternalTarget | null {
  if (url.origin !== origin.origin) return null;
  const path = url.pathname;
  const ou = String(orgUnitId);
  let match: RegExpExecArray | null;
  if ((match = /^\/d2l\/le\/content\/(\d+)\/viewcontent\/(\d+)\/view$/i.exec(path)) && match[1] === ou) return { kind: 'topic', id: Number(match[2]) };
  if ((match = /^\/d2l\/le\/lessons\/(\d+)\/topics\/(\d+)\/?$/i.exec(path)) && match[1] === ou) return { kind: 'topic', id: Number(match[2]) };
  if ((match = /^\/d2l\/le\/lessons\/(\d+)\/(?:units|lessons)\/(\d+)\/?$/i.exec(path)) && match[1] === ou) return { kind: 'module', id: Number(match[2]) };
  if ((match = /^\/d2l\/le\/content\/(\d+)\/home$/i.exec(path)) && match[1] === ou) {
    const item = /^D2L\.LE\.Content\.ContentObject\.(ModuleCO|TopicCO)-(\d+)$/i.exec(parameter(url, 'itemidentifier') ?? '');
    if (item) return { kind: item[1]!.toLowerCase() === 'moduleco' ? 'module' : 'topic', id: Number(item[2]) };
    return null;
  }
  if (QUICKLINK.test(path) && parameter(url, 'ou') === ou) {
    const type = (parameter(url, 'type') ?? '').toLowerCase();
    const tool = TOOL_OF_QUICKLINK[type];
    const rcode = parameter(url, 'rcode');
    if (tool !== undefined && rcode !== undefined && rcode.trim() !== '') return { kind: 'activity', tool, rcode: rcode.trim() };
    return null;
  }
  if (/^\/d2l\/lms\/quizzing\/user\/quiz_summary\.d2l$/i.test(path) && parameter(url, 'ou') === ou) {
    const quiz = id(parameter(url, 'qi'));
    return quiz === undefined ? null : { kind: 'activity', tool: 'quiz', id: quiz };
  }
  if (/^\/d2l\/lms\/dropbox\/user\/folder_submit_files\.d2l$/i.test(path) && parameter(url, 'ou') === ou) {
    const folder = id(parameter(url, 'db'));
    return folder === undefined ? null : { kind: 'activity', tool: 'dropbox', id: folder };
  }
  if ((match = /^\/d2l\/le\/(\d+)\/discussions\/(topics|forums)\/(\d+)(?:\/|$)/i.exec(path)) && match[1] === ou) {
    return { kind: 'activity', tool: match[2]!.toLowerCase() === 'topics' ? 'discuss' : 'discuss-forum', id: Number(match[3]) };
  }
  if (/^\/content\/enforced\/\d+-/i.test(path) && path.startsWith(`/content/enforced/${ou}-`)) return { kind: 'file', path };
  return null;
}

function toolOf(target: InternalTarget): string {
  if (target.kind !== 'activity') return target.kind;
  return target.tool === 'discuss-forum' ? 'discussforum' : target.tool;
}

/** The finding for an internal link the index has decided, or none when the target is fine. */
export function internalLinkFindings(link: LinkOccurrence, target: InternalTarget, state: TargetState, title: string | undefined, place: FindingPlace): Finding[] {
  const details = linkDetails(link);
  if (state === 'missing') return [finding('link.internal-missing', place, link.url, msg('finding.link.internal-missing', { target: toolOf(target) }), details)];
  if (state === 'hidden') return [finding('link.internal-hidden', place, link.url, msg('finding.link.internal-hidden', { title: title ?? '' }), details)];
  return [];
}
