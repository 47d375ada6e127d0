// The content objects of the selected modules: module and topic descriptions, handed on as HTML
// fragments of their items, and the dates the table of contents leaves out (a topic's due date),
// folded into the topics for the structure checks. One request per selected module (its
// structure), plus the root list or the module itself where no parent's structure names it.
import { readModule, readModuleStructure, readRootModules, type ContentObject } from '../brightspace/content-objects.ts';
import type { Reading } from '../brightspace/reading.ts';
import type { SelectedModule } from '../brightspace/toc.ts';
import type { TocResponse, TocTopic } from '../brightspace/types.ts';
import { modulePlace, topicPlace } from '../brightspace/places.ts';
import type { ItemUrls } from '../brightspace/item-urls.ts';
import pLimit from 'p-limit';
import type { SourceContext } from './course-items.ts';
import { valueOf } from './read-notes.ts';

export interface ContentObjects {
  modules: Map<number, ContentObject>;
  topics: Map<number, ContentObject>;
}

/** Reads the content objects of the selected modules and their topics. */
export async function readContentObjects(
  ctx: SourceContext,
  toc: TocResponse,
  selected: SelectedModule[],
  options: { concurrency: number; accessEndedOn: Date | null; onPlanned: (count: number) => void; onRead: () => void },
): Promise<ContentObjects> {
  const objects: ContentObjects = { modules: new Map(), topics: new Map() };
  const take = (reading: Reading<ContentObject[] | ContentObject>) => {
    options.onRead();
    const value = valueOf(ctx, 'content', reading, options.accessEndedOn);
    for (const object of value === null ? [] : Array.isArray(value) ? value : [value]) {
      (object.kind === 'module' ? objects.modules : objects.topics).set(object.id, object);
    }
  };
  const roots = new Set(toc.Modules.map((module) => module.ModuleId));
  const ids = selected.map((entry) => entry.module.ModuleId);
  const readRoot = ids.some((id) => roots.has(id));
  options.onPlanned(ids.length + (readRoot ? 1 : 0));
  if (readRoot) take(await readRootModules(ctx.session, ctx.orgUnitId));
  const limit = pLimit(options.concurrency);
  await limit.map(ids, async (id) => {
    ctx.signal?.throwIfAborted();
    take(await readModuleStructure(ctx.session, ctx.orgUnitId, id));
  });
  const unnamed = ids.filter((id) => !objects.modules.has(id));
  options.onPlanned(unnamed.length);
  await limit.map(unnamed, async (id) => {
    ctx.signal?.throwIfAborted();
    take(await readModule(ctx.session, ctx.orgUnitId, id));
  });
  return objects;
}

function isoOrNull(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

/** Topics with the dates only their content object carries (the due date, mostly) filled in. */
export function withContentDates(selected: SelectedModule[], objects: ContentObjects): SelectedModule[] {
  const missing = (topic: TocTopic, ...names: string[]) => names.every((name) => typeof topic[name] !== 'string' || topic[name] === '');
  return selected.map((entry) => ({
    ...entry,
    topics: entry.topics.map((topic) => {
      const object = objects.topics.get(topic.TopicId);
      if (object === undefined) return topic;
      const extra: Record<string, string | null> = {};
      if (missing(topic, 'DueDateTime', 'DueDate') && object.due !== null) extra.DueDate = isoOrNull(object.due);
      if (missing(topic, 'StartDateTime', 'StartDate') && object.start !== null) extra.StartDate = isoOrNull(object.start);
      if (missing(topic, 'EndDateTime', 'EndDate') && object.end !== null) extra.EndDate = isoOrNull(object.end);
      return Object.keys(extra).length === 0 ? topic : { ...topic, ...extra };
    }),
  }));
}

/** Hands on every non-empty module and topic description as an HTML fragment of its item. */
export async function emitDescriptions(ctx: SourceContext, selected: SelectedModule[], objects: ContentObjects, urls: ItemUrls): Promise<void> {
  for (const entry of selected) {
    const module = objects.modules.get(entry.module.ModuleId);
    if (module !== undefined && module.description.trim() !== '') {
      const url = urls.module(module.id);
      await ctx.emit({ place: modulePlace(entry.module), url, html: { content: module.description, baseUrl: new URL(url), whole: false }, part: 'description' });
    }
    for (const topic of entry.topics) {
      const object = objects.topics.get(topic.TopicId);
      if (object === undefined || object.description.trim() === '') continue;
      const url = urls.topic(topic.TopicId);
      await ctx.emit({ place: topicPlace(entry.module, topic), url, html: { content: object.description, baseUrl: new URL(url), whole: false }, part: 'description' });
    }
  }
}
