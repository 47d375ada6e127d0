// The table of contents as Brightspace returns it (content/toc), made safe to walk: fields vary by
// version and role, so every field is checked before use and unknown fields are kept.
import type { TocModule, TocResponse, TocTopic } from '../http/contract.ts';
import { AppError } from '../errors.ts';

function toId(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
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
 * The modules to test, in table-of-contents order, each selected module with everything nested in
 * it. An id that is not in the course is refused: the user picked from a list this course gave.
 */
export function selectModules(toc: TocResponse, selection: number[] | 'all'): SelectedModule[] {
  const wanted = selection === 'all' ? null : new Set(selection);
  const found = new Set<number>();
  const result: SelectedModule[] = [];

  const walk = (module: TocModule, depth: number, parent: number | null, included: boolean) => {
    const take = included || wanted === null || wanted.has(module.ModuleId);
    if (wanted?.has(module.ModuleId)) found.add(module.ModuleId);
    const children = sorted(module.Modules);
    if (take) result.push({ module, depth, parentModuleId: parent, topics: sorted(module.Topics), children });
    for (const child of children) walk(child, depth + 1, module.ModuleId, take);
  };
  for (const module of sorted(toc.Modules)) walk(module, 0, null, false);

  if (wanted) {
    const missing = [...wanted].filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new AppError(
        'invalid_input',
        `${missing.length === 1 ? 'Module' : 'Modules'} ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not in this course's table of contents. Load the modules again and pick from the list.`,
      );
    }
  }
  if (result.length === 0) return [];
  // Depth is relative to the shallowest selected module so a nested pick starts at the left.
  const minDepth = Math.min(...result.map((entry) => entry.depth));
  return result.map((entry) => ({ ...entry, depth: entry.depth - minDepth, parentModuleId: result.some((other) => other.module.ModuleId === entry.parentModuleId) ? entry.parentModuleId : null }));
}

export type TopicKind =
  | { kind: 'html'; path: string }
  | { kind: 'link'; url: string }
  | { kind: 'unreadable'; reason: string; url: string | null };

const ACTIVITY_NAMES: Record<number, string> = {
  3: 'Assignment: its instructions are not read by CTPO.',
  4: 'Quiz: its questions are not read by CTPO.',
  5: 'Discussion forum: its posts are not read by CTPO.',
  6: 'Discussion topic: its posts are not read by CTPO.',
  7: 'External learning tool (LTI): its content lives outside Brightspace.',
  9: 'Calendar item: not read by CTPO.',
  10: 'Checklist: not read by CTPO.',
  11: 'Self assessment: not read by CTPO.',
  12: 'Survey: its questions are not read by CTPO.',
  14: 'Course link: not read by CTPO.',
  25: 'Learning object repository item: not read by CTPO.',
  27: 'External learning tool (LTI): its content lives outside Brightspace.',
  28: 'Link to an org unit: not read by CTPO.',
};

const MEDIA = /\.(mp4|m4v|mov|webm|avi|wmv|mp3|m4a|wav|ogg|aac)$/i;

function extensionOf(path: string): string {
  const match = /\.([a-z0-9]{1,8})$/i.exec(path.split(/[?#]/)[0] ?? '');
  return match?.[1]?.toLowerCase() ?? '';
}

/** What CTPO can do with a topic: read it as HTML, check it as a link, or list it as not scanned. */
export function classifyTopic(topic: TocTopic): TopicKind {
  const url = typeof topic.Url === 'string' && topic.Url.trim() !== '' ? topic.Url.trim() : null;
  const activity = typeof topic.ActivityType === 'number' ? topic.ActivityType : null;
  const typeIdentifier = typeof topic.TypeIdentifier === 'string' ? topic.TypeIdentifier.toLowerCase() : '';
  const topicType = typeof topic.TopicType === 'number' ? topic.TopicType : null;

  if (activity !== null && activity in ACTIVITY_NAMES) return { kind: 'unreadable', reason: ACTIVITY_NAMES[activity]!, url };
  if ((activity !== null && activity >= 20 && activity <= 26) || typeIdentifier.includes('scorm')) {
    return { kind: 'unreadable', reason: 'SCORM package: its content is not read by CTPO.', url };
  }
  if (typeIdentifier === 'lti') return { kind: 'unreadable', reason: ACTIVITY_NAMES[7]!, url };
  if (typeIdentifier === 'contentservice') return { kind: 'unreadable', reason: 'Media from the content service: CTPO does not read audio or video.', url };

  const isLink = activity === 2 || (activity === null && (typeIdentifier === 'link' || topicType === 3));
  if (isLink) {
    if (url === null) return { kind: 'unreadable', reason: 'This link topic has no address.', url: null };
    if (/\/d2l\/common\/dialogs\/quicklink\//i.test(url)) return { kind: 'unreadable', reason: 'Quicklink to a course tool: the tool itself is not read by CTPO.', url };
    return { kind: 'link', url };
  }
  const isFile = activity === 1 || (activity === null && (typeIdentifier === 'file' || topicType === 1));
  if (isFile) {
    if (url === null) return { kind: 'unreadable', reason: 'This file topic has no file.', url: null };
    const extension = extensionOf(url);
    if (extension === 'html' || extension === 'htm') return { kind: 'html', path: url };
    if (MEDIA.test(`.${extension}`)) return { kind: 'unreadable', reason: `${extension.toUpperCase()} media file: CTPO does not read audio or video. Check its captions by hand.`, url };
    if (extension !== '') return { kind: 'unreadable', reason: `${extension.toUpperCase()} file: CTPO reads HTML pages only. Check this file by hand.`, url };
    return { kind: 'unreadable', reason: 'File of unknown type: CTPO reads HTML pages only. Check this file by hand.', url };
  }
  const label = typeof topic.TypeIdentifier === 'string' && topic.TypeIdentifier !== '' ? ` (${topic.TypeIdentifier})` : '';
  return { kind: 'unreadable', reason: `This kind of topic${label} is not read by CTPO.`, url };
}
