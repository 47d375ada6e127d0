// Reads the course for a run, tool by tool: the selected modules' content objects (their
// descriptions and the dates the table of contents lacks), the activities and course-wide items the
// run includes, then the topic pages, then the release conditions. Reading the lists is the
// "contents" phase of the run's progress; the topic pages are its "topics" phase. Every item read is
// handed on through the context; nothing here judges one.
import type { CourseOutline } from '../brightspace/course-offering.ts';
import type { CourseScope } from '../brightspace/course-scopes.ts';
import { itemUrls } from '../brightspace/item-urls.ts';
import { topicPlace } from '../brightspace/places.ts';
import type { SelectedModule } from '../brightspace/toc.ts';
import { readActivities } from './activities.ts';
import type { CheckedItem, SourceContext } from './course-items.ts';
import type { CourseDocuments } from './documents.ts';
import { emitDescriptions, readContentObjects, withContentDates } from './descriptions.ts';
import { readReleaseConditionTool } from './release-conditions.ts';
import { readTopicPages } from './topic-pages.ts';

export interface WholeCourseOptions {
  outline: CourseOutline;
  selected: SelectedModule[];
  scopes: readonly CourseScope[];
  /** Requests to the site at once (topic pages and lists alike). */
  concurrency: number;
  /** Takes the topics that are PDF, Word or PowerPoint files. */
  documents: CourseDocuments;
}

export interface WholeCourse {
  /** The selected modules, their topics' dates completed from the content objects. */
  selected: SelectedModule[];
  /** Course items besides modules and topics that were handed on, for the report. */
  items: CheckedItem[];
}

export async function readWholeCourse(ctx: SourceContext, options: WholeCourseOptions): Promise<WholeCourse> {
  const { outline, concurrency } = options;
  const urls = itemUrls(ctx.origin, ctx.orgUnitId);
  let done = 1;
  let total = 1;
  const onPlanned = (count: number) => ctx.progress('contents', done, (total += count));
  const onRead = () => ctx.progress('contents', ++done, total);

  const objects = await readContentObjects(ctx, outline.toc, options.selected, { concurrency, accessEndedOn: outline.accessEndedOn, onPlanned, onRead });
  const selected = withContentDates(options.selected, objects);
  const activities = await readActivities(ctx, {
    selected,
    objects,
    scopes: options.scopes,
    courseTitle: outline.offering?.name ?? '',
    urls,
    concurrency,
    accessEndedOn: outline.accessEndedOn,
    onRead,
    onPlanned,
  });
  ctx.progress('contents', total, total);

  await emitDescriptions(ctx, selected, objects, urls);
  await readTopicPages(ctx, selected, { concurrency, documents: options.documents, handled: activities.handledTopics });
  // The links found so far are being checked meanwhile; the site itself is idle again.
  const topicOwners = selected.flatMap((entry) =>
    entry.topics.filter((topic) => topic.HasReleaseConditions !== false).map((topic) => ({ owner: { kind: 'topic' as const, id: topic.TopicId }, place: topicPlace(entry.module, topic), url: urls.topic(topic.TopicId) })),
  );
  await readReleaseConditionTool(ctx, [...topicOwners, ...activities.conditionOwners], { gradeItems: activities.gradeItemIds, concurrency });
  return { selected, items: activities.items };
}
