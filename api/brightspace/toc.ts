// The table of contents as Brightspace returns it (content/toc), made safe to walk: fields vary by
// version and role, so every field is checked before use and unknown fields are kept.
import { AppError } from '../errors.ts';
import { msg, type Message } from '../i18n/messages.ts';
import { isRecord } from '../json.ts';
import { documentTypeOf, type DocumentType } from '../extract/document-facts.ts';
import type { TocModule, TocResponse, TocTopic } from './types.ts';

function toId(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return null;
}

function normalizeTopic(raw: unknown): TocTopic | null {
  if (!isRecord(raw)) return null;
  const id = toId(raw.TopicId ?? raw.Identifier);
  if (id === null) return null;
  return { ...raw, TopicId: id, Title: typeof raw.Title === 'string' ? raw.Title : '' };
}

function normalizeModule(raw: unknown, depth: number): TocModule | null {
  if (!isRecord(raw) || depth > 50) return null;
  const id = toId(raw.ModuleId);
  if (id === null) return null;
  const modules = Array.isArray(raw.Modules) ? raw.Modules.map((child) => normalizeModule(child, depth + 1)).filter((m) => m !== null) : [];
  const topics = Array.isArray(raw.Topics) ? raw.Topics.map(normalizeTopic).filter((t) => t !== null) : [];
  return { ...raw, ModuleId: id, Title: typeof raw.Title === 'string' ? raw.Title : '', Modules: modules, Topics: topics };
}

/** Brightspace's toc made consistent: `Modules` and `Topics` always arrays, ids numbers. Null if not a toc. */
export function normalizeToc(body: unknown): TocResponse | null {
  if (!isRecord(body) || !('Modules' in body)) return null;
  const modules = Array.isArray(body.Modules) ? body.Modules.map((m) => normalizeModule(m, 0)).filter((m) => m !== null) : [];
  return { ...body, Modules: modules };
}

/** Items are shown in Brightspace's order: SortOrder when present, else as listed. */
function sorted<T extends { [field: string]: unknown }>(items: T[] | undefined): T[] {
  return [...(items ?? [])]
    .map((item, index) => ({ item, index }))
    .sort((a, b) => {
      const left = typeof a.item.SortOrder === 'number' ? a.item.SortOrder : Number.MAX_SAFE_INTEGER;
      const right = typeof b.item.SortOrder === 'number' ? b.item.SortOrder : Number.MAX_SAFE_INTEGER;
      return left - right || a.index - b.index;
    })
    .map(({ item }) => item);
}

export interface SelectedModule {
  module: TocModule;
  depth: number;
  parentModuleId: number | null;
  /** The module's own topics, in order (nested modules are listed separately). */
  topics: TocTopic[];
  /** Nested modules, in order. */
  children: TocModule[];
}

/**
 * The modules to test, in table-of-contents order: each selected module with everything nested in
 * it, but for the excluded ones (each with everything nested in it), which must be inside a
 * selected module. A module selected by its own id is taken even inside an excluded one. An id
 * that is not in the course, or an exclusion outside every selected module, is refused: the user
 * picked from a list this course gave.
 */
export function selectModules(toc: TocResponse, selection: number[] | 'all', exclude: readonly number[] = []): SelectedModule[] {
  const wanted = selection === 'all' ? null : new Set(selection);
  const excluded = new Set(exclude);
  const found = new Set<number>();
  // Exclusions met inside a taken module: the only ones that mean something.
  const inside = new Set<number>();
  const result: SelectedModule[] = [];

  // `inherited`: the module is taken unless excluded (its parent was taken, or every module is).
  const walk = (module: TocModule, depth: number, parent: number | null, inherited: boolean) => {
    const id = module.ModuleId;
    if (wanted?.has(id)) found.add(id);
    if (excluded.has(id) && inherited) inside.add(id);
    const take = wanted?.has(id) === true || (inherited && !excluded.has(id));
    const children = sorted(module.Modules);
    if (take) result.push({ module, depth, parentModuleId: parent, topics: sorted(module.Topics), children });
    for (const child of children) walk(child, depth + 1, id, take);
  };
  for (const module of sorted(toc.Modules)) walk(module, 0, null, wanted === null);

  if (wanted) {
    const missing = [...wanted].filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new AppError('invalid_input', msg('error.input.modules-not-in-course', { count: missing.length, ids: missing.join(', ') }));
    }
  }
  // An exclusion the walk never met is not in the course, or inside no selected module: either way
  // the run would not test what the person saw.
  const notInside = [...excluded].filter((id) => !inside.has(id));
  if (notInside.length > 0) {
    throw new AppError('invalid_input', msg('error.input.excluded-not-inside', { count: notInside.length, ids: notInside.join(', ') }));
  }
  if (result.length === 0) return [];
  // Depth is relative to the shallowest selected module so a nested pick starts at the left.
  const minDepth = Math.min(...result.map((entry) => entry.depth));
  return result.map((entry) => ({ ...entry, depth: entry.depth - minDepth, parentModuleId: result.some((other) => other.module.ModuleId === entry.parentModuleId) ? entry.parentModuleId : null }));
}

export type TopicKind =
  | { kind: 'html'; path: string }
  | { kind: 'document'; path: string; type: DocumentType }
  | { kind: 'link'; url: string }
  | { kind: 'unreadable'; reason: Message; url: string | null };

const ACTIVITY_NAMES: Record<number, Message> = {
  3: msg('reason.activity.assignment'),
  4: msg('reason.activity.quiz'),
  5: msg('reason.activity.forum'),
  6: msg('reason.activity.discussion-topic'),
  // An external tool: listed as not checked here, with what to check by hand.
  7: msg('reason.embed.not-checked', { provider: 'lti' }),
  9: msg('reason.activity.calendar'),
  10: msg('reason.activity.checklist'),
  11: msg('reason.activity.self-assessment'),
  12: msg('reason.activity.survey'),
  14: msg('reason.activity.course-link'),
  25: msg('reason.activity.lor'),
  27: msg('reason.embed.not-checked', { provider: 'lti' }),
  28: msg('reason.activity.org-unit'),
};

const MEDIA = /\.(mp4|m4v|mov|webm|avi|wmv|mp3|m4a|wav|ogg|aac)$/i;

function extensionOf(path: string): string {
  const match = /\.([a-z0-9]{1,8})$/i.exec(path.split(/[?#]/)[0] ?? '');
  return match?.[1]?.toLowerCase() ?? '';
}

/** What CTPO can do with a topic: read it as HTML or as a document, check it as a link, or list it as not scanned. */
export function classifyTopic(topic: TocTopic): TopicKind {
  const url = typeof topic.Url === 'string' && topic.Url.trim() !== '' ? topic.Url.trim() : null;
  const activity = typeof topic.ActivityType === 'number' ? topic.ActivityType : null;
  const typeIdentifier = typeof topic.TypeIdentifier === 'string' ? topic.TypeIdentifier.toLowerCase() : '';
  const topicType = typeof topic.TopicType === 'number' ? topic.TopicType : null;

  if (activity !== null && activity in ACTIVITY_NAMES) return { kind: 'unreadable', reason: ACTIVITY_NAMES[activity]!, url };
  if ((activity !== null && activity >= 20 && activity <= 26) || typeIdentifier.includes('scorm')) {
    return { kind: 'unreadable', reason: msg('reason.activity.scorm'), url };
  }
  if (typeIdentifier === 'lti') return { kind: 'unreadable', reason: ACTIVITY_NAMES[7]!, url };
  if (typeIdentifier === 'contentservice') return { kind: 'unreadable', reason: msg('reason.activity.content-service'), url };

  const isLink = activity === 2 || (activity === null && (typeIdentifier === 'link' || topicType === 3));
  if (isLink) {
    if (url === null) return { kind: 'unreadable', reason: msg('reason.topic.link-without-address'), url: null };
    if (/\/d2l\/common\/dialogs\/quicklink\//i.test(url)) return { kind: 'unreadable', reason: msg('reason.topic.quicklink'), url };
    return { kind: 'link', url };
  }
  const isFile = activity === 1 || (activity === null && (typeIdentifier === 'file' || topicType === 1));
  if (isFile) {
    if (url === null) return { kind: 'unreadable', reason: msg('reason.topic.file-without-file'), url: null };
    const extension = extensionOf(url);
    if (extension === 'html' || extension === 'htm') return { kind: 'html', path: url };
    const type = documentTypeOf(url);
    if (type !== null) return { kind: 'document', path: url, type };
    if (MEDIA.test(`.${extension}`)) return { kind: 'unreadable', reason: msg('reason.topic.media-file', { type: extension.toUpperCase() }), url };
    if (extension !== '') return { kind: 'unreadable', reason: msg('reason.topic.other-file', { type: extension.toUpperCase() }), url };
    return { kind: 'unreadable', reason: msg('reason.topic.unknown-file'), url };
  }
  const label = typeof topic.TypeIdentifier === 'string' ? topic.TypeIdentifier.slice(0, 60) : '';
  return { kind: 'unreadable', reason: label === '' ? msg('reason.topic.unknown-kind') : msg('reason.topic.unknown-kind-named', { kind: label }), url };
}

/** The dates an item carries; any may be unset. */
export interface Dates {
  start: Date | null;
  end: Date | null;
  due: Date | null;
}

function dateField(item: TocModule | TocTopic, ...names: string[]): Date | null {
  for (const name of names) {
    const value = item[name];
    if (typeof value === 'string' && value !== '') {
      const date = new Date(value);
      if (!Number.isNaN(date.getTime())) return date;
    }
  }
  return null;
}

/** A module's or topic's dates, from whichever of the table of contents' date fields it has. */
export function datesOf(item: TocModule | TocTopic): Dates {
  return {
    start: dateField(item, 'StartDateTime', 'StartDate', 'ModuleStartDate'),
    end: dateField(item, 'EndDateTime', 'EndDate', 'ModuleEndDate'),
    due: dateField(item, 'DueDateTime', 'DueDate', 'ModuleDueDate'),
  };
}

/** The course offering's own dates; either may be unset. */
export interface CourseDates {
  start: Date | null;
  end: Date | null;
}
