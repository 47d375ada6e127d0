// The course's activities and course-wide items: assignments, quizzes, discussions, announcements,
// the overview and the gradebook. Which tools are read depends on the run: those the selected
// modules' quicklink topics open, always; a whole tool when the run's scopes include it (and the
// assignments, quizzes and discussions when the gradebook is included, to know what feeds it).
// Each tool has its own reader; here they are read at once, added to the course index, and every
// item the run checks is handed on: a quicklink topic with what it opens, each activity in the
// place students open it from, the announcements, the overview and the gradebook.
import type { CourseScope } from '../brightspace/course-scopes.ts';
import type { GradedActivity } from '../brightspace/grades.ts';
import type { ActivityKind, ItemUrls } from '../brightspace/item-urls.ts';
import { itemPlace, topicPlace, type ItemPlace } from '../brightspace/places.ts';
import type { ConditionOwner } from '../brightspace/release-conditions.ts';
import type { SelectedModule } from '../brightspace/toc.ts';
import { ACTIVITY_TYPE_KINDS } from '../brightspace/item-urls.ts';
import type { ActivityRecord, ToolReading } from './activity-record.ts';
import { readAssignmentTool } from './assignments.ts';
import type { CheckedItem, CourseItem, SourceContext } from './course-items.ts';
import type { ContentObjects } from './descriptions.ts';
import { readDiscussionTool } from './discussions.ts';
import { readGradebookTool } from './gradebook.ts';
import { readAnnouncementTool, readOverviewTool } from './news.ts';
import { activityTypeOf, lookUpQuicklink, quicklinkTopics } from './quicklinks.ts';
import { emitQuizQuestions, readQuizTool, type CheckedQuiz } from './quizzes.ts';

export interface ActivitiesOptions {
  selected: SelectedModule[];
  objects: ContentObjects;
  scopes: readonly CourseScope[];
  /** The course's name, the title of course-level items. */
  courseTitle: string;
  urls: ItemUrls;
  concurrency: number;
  /** When the course's access window closed, if it has: the reason behind a 403. */
  accessEndedOn: Date | null;
  /** Called after each request, for the progress of the reading phase. */
  onRead: () => void;
  /** Called before each request is made, with how many more to expect. */
  onPlanned: (count: number) => void;
}

/** An item whose release conditions the run reads: a topic or an activity, where students meet it. */
export interface ConditionOwnerItem {
  owner: ConditionOwner;
  place: ItemPlace;
  url: string | null;
}

export interface CourseActivities {
  /** Quicklink topics whose activity was found (handed on here, not read as topics). */
  handledTopics: Set<number>;
  /** The course-wide and opened items handed on, for the report. */
  items: CheckedItem[];
  /** The activities read whose release conditions the run reads. */
  conditionOwners: ConditionOwnerItem[];
  /** The gradebook's item ids, when it was read: what a release condition on a grade may name. */
  gradeItemIds: Set<number> | null;
}

export async function readActivities(ctx: SourceContext, options: ActivitiesOptions): Promise<CourseActivities> {
  const scopes = new Set(options.scopes);
  const { urls } = options;
  const openers = quicklinkTopics(options.selected, options.objects, urls, ctx.orgUnitId);
  const wants = (kinds: ActivityKind[], scope: CourseScope) => scopes.has(scope) || scopes.has('gradebook') || openers.some((opener) => opener.kinds.some((kind) => kinds.includes(kind)));
  const tool: ToolReading = {
    ctx,
    urls,
    accessEndedOn: options.accessEndedOn,
    concurrency: options.concurrency,
    counted: async (reading) => {
      const value = await reading;
      options.onRead();
      return value;
    },
    planned: options.onPlanned,
  };
  const choice = {
    assignments: wants(['assignment'], 'assignments'),
    quizzes: wants(['quiz'], 'quizzes'),
    discussions: wants(['discussion-forum', 'discussion-topic'], 'discussions'),
    announcements: scopes.has('announcements'),
    overview: scopes.has('overview'),
    gradebook: scopes.has('gradebook'),
  };
  options.onPlanned(Object.values(choice).filter(Boolean).length + (choice.gradebook ? 2 : 0));
  const [assignments, quizzes, discussions, announcements, overview, gradebook] = await Promise.all([
    choice.assignments ? readAssignmentTool(tool) : null,
    choice.quizzes ? readQuizTool(tool) : null,
    choice.discussions ? readDiscussionTool(tool) : null,
    choice.announcements ? readAnnouncementTool(tool) : null,
    choice.overview ? readOverviewTool(tool) : null,
    choice.gradebook ? readGradebookTool(tool) : null,
  ]);

  // The course index decides the links to these tools' items, in every item's HTML.
  const tools: [ActivityKind, ActivityRecord[] | null | undefined][] = [
    ['assignment', assignments],
    ['quiz', quizzes],
    ['discussion-forum', discussions?.forums],
    ['discussion-topic', discussions?.topics],
  ];
  for (const [kind, records] of tools) if (records) ctx.courseIndex.addTool(kind, records.map((record) => record.activity));

  const items = new Map<string, CheckedItem>();
  const list = ({ moduleId, moduleTitle, topicId, topicTitle, itemType, itemId, itemTitle }: ItemPlace, viewUrl: string | null) => {
    const place = { moduleId, moduleTitle, topicId, topicTitle, itemType, itemId, itemTitle };
    items.set(`${itemType}:${itemId}:${topicId}`, { place, viewUrl });
  };

  // Quicklink topics: the activity each opens is checked in its place.
  const handledTopics = new Set<number>();
  const openedFrom = new Map<string, ItemPlace>();
  for (const opener of openers) {
    const lookup = lookUpQuicklink(ctx.courseIndex, opener);
    if (lookup.state === 'unknown') continue;
    const place = topicPlace(opener.module, opener.topic);
    handledTopics.add(opener.topic.TopicId);
    const reference = String(opener.toolItemId ?? opener.code ?? '');
    await ctx.emit({ place, url: null, isTopic: true, quicklink: { kinds: opener.kinds, reference, address: opener.address, visible: opener.visible, lookup } });
    const { activity } = lookup;
    if (activity !== undefined && !openedFrom.has(`${activity.kind}:${activity.id}`)) openedFrom.set(`${activity.kind}:${activity.id}`, itemPlace(activity.kind, activity.id, activity.title, place));
  }

  // Which activities are checked: every one of a tool in scope, and those quicklinks open.
  const placeOf = ({ activity }: ActivityRecord, scope: CourseScope) => openedFrom.get(`${activity.kind}:${activity.id}`) ?? (scopes.has(scope) ? itemPlace(activity.kind, activity.id, activity.title) : null);
  const records = tools.flatMap(([, read]) => read ?? []);
  const checked: { record: ActivityRecord; place: ItemPlace }[] = [];
  for (const record of records) {
    const place = placeOf(record, record.scope);
    if (place === null) continue;
    checked.push({ record, place });
    list(place, record.activity.viewUrl);
    const item: CourseItem = { place, url: record.activity.viewUrl, links: record.links, dates: { dates: record.dates, course: true } };
    if (record.html.trim() !== '') item.html = { content: record.html, baseUrl: new URL(record.activity.viewUrl), whole: false };
    await ctx.emit(item);
  }
  // The questions of every quiz checked, in the quiz's place (hidden quizzes too: students meet them once shown).
  const checkedQuizzes: CheckedQuiz[] = checked.flatMap(({ record, place }) => (record.activity.kind === 'quiz' ? [{ id: record.activity.id, place, viewUrl: record.activity.viewUrl }] : []));
  await emitQuizQuestions(tool, checkedQuizzes);
  for (const announcement of announcements ?? []) {
    const place = itemPlace('announcement', announcement.id, announcement.title);
    const url = urls.announcement(announcement.id);
    list(place, url);
    const item: CourseItem = { place, url, dates: { dates: { start: announcement.start, end: announcement.end, due: null }, course: false } };
    if (announcement.hidden) item.hiddenFromStudents = true;
    if (announcement.body.trim() !== '') item.html = { content: announcement.body, baseUrl: new URL(url), whole: false };
    await ctx.emit(item);
  }
  if (overview !== null && overview.description.trim() !== '') {
    const place = itemPlace('course', ctx.orgUnitId, options.courseTitle);
    const url = urls.overview();
    list(place, urls.home());
    await ctx.emit({ place, url, html: { content: overview.description, baseUrl: new URL(url), whole: false }, part: 'overview' });
  }
  if (gradebook !== null) {
    const graded = gradedActivities(records, options, (record) => placeOf(record, 'gradebook') ?? itemPlace(record.activity.kind, record.activity.id, record.activity.title));
    const referencesComplete = assignments !== null && quizzes !== null;
    await ctx.emit({ place: itemPlace('course', ctx.orgUnitId, options.courseTitle), url: urls.gradebook(), gradebook: { gradebook, graded, referencesComplete, courseTitle: options.courseTitle } });
  }

  return {
    handledTopics,
    items: [...items.values()],
    conditionOwners: checked.flatMap(({ record, place }) => (record.conditionOwner === null ? [] : [{ owner: record.conditionOwner, place, url: record.activity.viewUrl }])),
    gradeItemIds: gradebook === null ? null : new Set(gradebook.items.map((item) => item.id)),
  };
}

/** Every activity that names a grade item: assignments and quizzes read, and content topics of the selected modules. */
function gradedActivities(records: ActivityRecord[], options: ActivitiesOptions, placeOf: (record: ActivityRecord) => ItemPlace): GradedActivity[] {
  const graded: GradedActivity[] = [];
  for (const record of records) {
    const { kind } = record.activity;
    if ((kind === 'assignment' || kind === 'quiz') && record.gradeItemId !== null) graded.push({ place: placeOf(record), url: record.activity.viewUrl, gradeItemId: record.gradeItemId });
  }
  for (const entry of options.selected) {
    for (const topic of entry.topics) {
      const object = options.objects.topics.get(topic.TopicId);
      const activityType = activityTypeOf(topic, options.objects);
      // A quicklink topic repeats its activity's grade item; the activity speaks for it.
      if (object === undefined || (activityType !== null && activityType in ACTIVITY_TYPE_KINDS)) continue;
      for (const gradeItemId of object.gradeItemIds) graded.push({ place: topicPlace(entry.module, topic), url: options.urls.topic(topic.TopicId), gradeItemId });
    }
  }
  return graded;
}
