// The quicklink topics of the selected modules: content topics that open an assignment, a quiz or a
// discussion of this course, and what each opens, as the course index finds it. Read from the
// table of contents, with the content objects' fields where the table of contents lacks them.
import { ACTIVITY_TYPE_KINDS, parseQuicklink, type ActivityKind, type ItemUrls } from '../brightspace/item-urls.ts';
import type { SelectedModule } from '../brightspace/toc.ts';
import type { TocModule, TocTopic } from '../brightspace/types.ts';
import type { CourseIndex, Lookup } from './course-index.ts';
import type { ContentObjects } from './descriptions.ts';

/** A quicklink topic of the selected modules and the activity it names. */
export interface QuicklinkTopic {
  module: TocModule;
  topic: TocTopic;
  kinds: readonly ActivityKind[];
  toolItemId: number | null;
  code: string | null;
  /** Neither the topic nor a module above it is hidden. */
  visible: boolean;
  /** The quicklink's address, absolute. */
  address: string | null;
}

/** The quicklink topics of the selected modules that open an assignment, quiz or discussion of this course. */
export function quicklinkTopics(selected: SelectedModule[], objects: ContentObjects, urls: ItemUrls, orgUnitId: number): QuicklinkTopic[] {
  const openers: QuicklinkTopic[] = [];
  const hiddenModules = new Set<number>();
  for (const entry of selected) {
    if (entry.module.IsHidden === true || (entry.parentModuleId !== null && hiddenModules.has(entry.parentModuleId))) hiddenModules.add(entry.module.ModuleId);
    for (const topic of entry.topics) {
      const object = objects.topics.get(topic.TopicId);
      const activityType = activityTypeOf(topic, objects);
      const address = typeof topic.Url === 'string' ? topic.Url : (object?.url ?? '');
      const quicklink = address === '' ? null : parseQuicklink(address, new URL(urls.overview()));
      if (quicklink !== null && quicklink.orgUnitId !== null && quicklink.orgUnitId !== orgUnitId) continue;
      const kinds = activityType !== null && activityType in ACTIVITY_TYPE_KINDS ? [ACTIVITY_TYPE_KINDS[activityType]!] : Array.isArray(quicklink?.opens) ? quicklink.opens : [];
      if (kinds.length === 0) continue;
      const toolItemId = typeof topic.ToolItemId === 'number' ? topic.ToolItemId : (object?.toolItemId ?? null);
      const code = quicklink?.code ?? null;
      if (toolItemId === null && code === null) continue;
      const absolute = address === '' || !URL.canParse(address, urls.home()) ? null : new URL(address, urls.home()).href;
      openers.push({ module: entry.module, topic, kinds, toolItemId, code, visible: topic.IsHidden !== true && !hiddenModules.has(entry.module.ModuleId), address: absolute });
    }
  }
  return openers;
}

/** A topic's activity type, from the table of contents or its content object. */
export function activityTypeOf(topic: TocTopic, objects: ContentObjects): number | null {
  return typeof topic.ActivityType === 'number' ? topic.ActivityType : (objects.topics.get(topic.TopicId)?.activityType ?? null);
}

/** The activity a quicklink topic opens: by its tool item id, else by its code. */
export function lookUpQuicklink(index: CourseIndex, opener: QuicklinkTopic): Lookup {
  if (opener.toolItemId !== null) {
    const byId = index.activityById(opener.kinds, opener.toolItemId);
    if (byId.activity !== undefined) return byId;
    const byCode = opener.code === null ? null : index.activityByCode(opener.kinds, opener.code);
    if (byCode?.activity !== undefined) return byCode;
    return opener.kinds.every((kind) => index.isRead(kind)) ? { state: 'missing' } : { state: 'unknown' };
  }
  return index.activityByCode(opener.kinds, opener.code!);
}
