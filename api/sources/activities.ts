// The course's activities and course-wide items: assignments, quizzes, discussions, announcements,
// the overview and the gradebook. What is read depends on the run: the activities the selected
// modules' quicklink topics open, always; a whole tool when the run's scopes include it (and the
// assignments, quizzes and discussions when the gradebook is included, to know what feeds it).
// Each item's HTML (instructions, descriptions, announcement bodies, the overview) is checked like a
// topic; dates, quicklinks, release conditions and the gradebook give findings of their own.
import type { Assignment } from '../brightspace/dropbox.ts';
import { readAssignments } from '../brightspace/dropbox.ts';
import type { DiscussionTopic, Forum } from '../brightspace/discussions.ts';
import { readForums, readForumTopics } from '../brightspace/discussions.ts';
import type { CourseOffering } from '../brightspace/course-offering.ts';
import { readGradeCategories, readGradeItems, readGradeSetup } from '../brightspace/grades.ts';
import type { ItemUrls } from '../brightspace/item-urls.ts';
import type { Announcement, Overview } from '../brightspace/news.ts';
import { readAnnouncements, readOverview } from '../brightspace/news.ts';
import type { Quiz } from '../brightspace/quizzes.ts';
import { readQuizzes } from '../brightspace/quizzes.ts';
import type { SelectedModule } from '../brightspace/toc.ts';
import type { TocModule, TocResponse, TocTopic } from '../brightspace/types.ts';
import { finding } from '../checks/catalogue.ts';
import type { Finding, FindingPlace } from '../checks/finding.ts';
import { itemPlace, topicPlace } from '../checks/finding.ts';
import type { Gradebook, GradedActivity } from '../checks/grades.ts';
import type { LinkOccurrence } from '../extract/html.ts';
import { resolveAddress } from '../extract/html.ts';
import { courseDateFindings, dateFindings, type CourseDates, type Dates } from '../checks/structure.ts';
import type { CourseScope } from '../brightspace/course-scopes.ts';
import { msg } from '../i18n/messages.ts';
import { ACTIVITY_TYPE_KINDS, ActivityIndex, QUICKLINK_KINDS, parseQuicklink, type ActivityKind, type ActivityLookup, type IndexedActivity } from './activity-index.ts';
import { forEachLimited, type CheckedItem, type CourseItem, type SourceContext } from './course-items.ts';
import type { ContentObjects } from './descriptions.ts';
import { gradebookFindings } from './gradebook.ts';
import { valueOf } from './read-notes.ts';
import { checkReleaseConditions, type ConditionOwnerItem } from './release-conditions.ts';

export interface ActivitiesOptions {
  /** The whole course's table of contents (release conditions may name any of its topics). */
  toc: TocResponse;
  selected: SelectedModule[];
  objects: ContentObjects;
  scopes: readonly CourseScope[];
  offering: CourseOffering | null;
  /** The course's name, the title of course-level findings. */
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

export interface CourseActivities {
  index: ActivityIndex;
  /** Quicklink topics whose activity this source resolved (checked here, not "not scanned"). */
  handledTopics: Set<number>;
  /** The items it checked or found something about, for the report. */
  items: CheckedItem[];
  /**
   * Reads the release conditions of the selected topics and the activities read, and adds what
   * they show. Left to the caller to run once the topic pages are read: the site is then idle
   * while the links are checked.
   */
  releaseConditions(): Promise<void>;
}

interface Read {
  assignments: Assignment[] | null;
  quizzes: Quiz[] | null;
  forums: Forum[] | null;
  topics: DiscussionTopic[] | null;
  announcements: Announcement[] | null;
  overview: Overview | null;
  gradebook: Gradebook | null;
}

/** A quicklink topic of the selected modules and the activity it opens. */
interface OpeningTopic {
  module: TocModule;
  topic: TocTopic;
  kinds: ActivityKind[];
  toolItemId: number | null;
  code: string | null;
  visible: boolean;
  /** The quicklink's address, absolute. */
  address: string | null;
}

/** One activity to check: its item, dates, and where it is opened from, if from content. */
interface ActivityItem {
  activity: IndexedActivity;
  place: FindingPlace;
  html: string;
  dates: Dates;
  links: LinkOccurrence[];
  gradeItemId: number | null;
  forumId?: number;
}

export async function readActivities(ctx: SourceContext, options: ActivitiesOptions): Promise<CourseActivities> {
  const scopes = new Set(options.scopes);
  const openers = quicklinkTopics(options, ctx.orgUnitId);
  const wants = (kinds: ActivityKind[], scope: CourseScope) => scopes.has(scope) || scopes.has('gradebook') || openers.some((opener) => opener.kinds.some((kind) => kinds.includes(kind)));
  const read = await readTools(ctx, options, {
    assignments: wants(['assignment'], 'assignments'),
    quizzes: wants(['quiz'], 'quizzes'),
    discussions: wants(['discussion-forum', 'discussion-topic'], 'discussions'),
    announcements: scopes.has('announcements'),
    overview: scopes.has('overview'),
    gradebook: scopes.has('gradebook'),
  });

  const { urls } = options;
  // The course index decides the links to these tools' items, in every item's HTML.
  const entries = <T extends { id: number; code?: string | null; hidden: boolean }>(items: T[], title: (item: T) => string) =>
    items.map((item) => ({ id: item.id, ...(item.code ? { rcode: item.code } : {}), title: title(item), hidden: item.hidden }));
  if (read.assignments) ctx.courseIndex.addActivities('dropbox', entries(read.assignments, (a) => a.name));
  if (read.quizzes) ctx.courseIndex.addActivities('quiz', entries(read.quizzes, (q) => q.name));
  if (read.forums) ctx.courseIndex.addActivities('discuss-forum', entries(read.forums, (f) => f.name));
  const index = new ActivityIndex();
  if (read.assignments) index.addTool('assignment', read.assignments.map((a) => ({ kind: 'assignment', id: a.id, title: a.name, hidden: a.hidden, code: a.code, viewUrl: urls.assignment(a.id) })));
  if (read.quizzes) index.addTool('quiz', read.quizzes.map((q) => ({ kind: 'quiz', id: q.id, title: q.name, hidden: q.hidden, code: q.code, viewUrl: urls.quiz(q.id) })));
  if (read.forums) index.addTool('discussion-forum', read.forums.map((f) => ({ kind: 'discussion-forum', id: f.id, title: f.name, hidden: f.hidden, code: null, viewUrl: urls.forum(f.id) })));
  if (read.topics) {
    const hiddenForums = new Set((read.forums ?? []).filter((f) => f.hidden).map((f) => f.id));
    index.addTool('discussion-topic', read.topics.map((t) => ({ kind: 'discussion-topic', id: t.id, title: t.name, hidden: t.hidden || hiddenForums.has(t.forumId), code: t.code, viewUrl: urls.discussionTopic(t.id) })));
    ctx.courseIndex.addActivities('discuss', entries(read.topics.map((t) => ({ ...t, hidden: t.hidden || hiddenForums.has(t.forumId) })), (t) => t.name));
  }

  const findings: Finding[] = [];
  const handledTopics = new Set<number>();
  const items = new Map<string, CheckedItem>();
  const remember = ({ moduleId, moduleTitle, topicId, topicTitle, itemType, itemId, itemTitle }: FindingPlace, viewUrl: string | null) => {
    const place = { moduleId, moduleTitle, topicId, topicTitle, itemType, itemId, itemTitle };
    items.set(`${itemType}:${itemId}:${topicId}`, { place, viewUrl });
  };

  // Quicklink topics: the activity they open is checked in their place; a missing or hidden one is
  // a finding on the topic.
  const openedFrom = new Map<string, FindingPlace>();
  for (const opener of openers) {
    const lookup = lookUp(index, opener);
    if (lookup.state === 'unknown') continue;
    const place = topicPlace(opener.module, opener.topic);
    handledTopics.add(opener.topic.TopicId);
    await ctx.check({ place, url: null });
    if (lookup.state === 'missing') {
      findings.push(finding('link.internal-missing', place, opener.address, msg('finding.link.quicklink-missing', { kind: opener.kinds[0]!.replaceAll('-', '_'), id: String(opener.toolItemId ?? opener.code ?? '') }), { element: 'topic', subject: `quicklink:${opener.kinds[0]}:${opener.toolItemId ?? opener.code}` }));
      continue;
    }
    const { activity } = lookup;
    if (activity.hidden && opener.visible) {
      findings.push(finding('link.internal-hidden', place, activity.viewUrl, msg('finding.link.quicklink-hidden', { kind: activity.kind.replaceAll('-', '_'), title: activity.title }), { element: 'topic', subject: `quicklink:${activity.kind}:${activity.id}` }));
    }
    const key = `${activity.kind}:${activity.id}`;
    if (!openedFrom.has(key)) openedFrom.set(key, itemPlace(activity.kind, activity.id, activity.title, place));
  }

  // Which activities are checked: every one of a tool in scope, and those quicklinks open.
  const placeOf = (activity: IndexedActivity, scope: CourseScope) => {
    const opened = openedFrom.get(`${activity.kind}:${activity.id}`);
    if (opened !== undefined) return opened;
    return scopes.has(scope) ? itemPlace(activity.kind, activity.id, activity.title) : null;
  };
  const activityItems = toActivityItems(read, index, placeOf, ctx);

  const course: CourseDates = { start: options.offering?.start ?? null, end: options.offering?.end ?? null };
  for (const item of activityItems) {
    remember(item.place, item.activity.viewUrl);
    findings.push(...dateFindings(item.dates, item.place, ctx.now), ...courseDateFindings(item.dates, item.place, course));
    if (item.html.trim() !== '' || item.links.length > 0) {
      const checked: CourseItem = { place: item.place, url: item.activity.viewUrl, links: item.links };
      if (item.html.trim() !== '') checked.html = { content: item.html, baseUrl: new URL(item.activity.viewUrl), whole: false };
      await ctx.check(checked);
    }
  }
  for (const announcement of scopes.has('announcements') ? (read.announcements ?? []) : []) {
    const place = itemPlace('announcement', announcement.id, announcement.title);
    const url = urls.announcement(announcement.id);
    remember(place, url);
    findings.push(...dateFindings({ start: announcement.start, end: announcement.end, due: null }, place, ctx.now));
    if (announcement.body.trim() !== '') await ctx.check({ place, url, html: { content: announcement.body, baseUrl: new URL(url), whole: false } });
  }
  if (read.overview !== null && read.overview.description.trim() !== '') {
    const place = itemPlace('course', ctx.orgUnitId, options.courseTitle);
    const url = urls.overview();
    remember(place, urls.home());
    await ctx.check({ place, url, html: { content: read.overview.description, baseUrl: new URL(url), whole: false }, part: 'overview' });
  }

  if (read.gradebook !== null) {
    const graded = gradedActivities(read, options, index, placeOf);
    const gradeFindings = gradebookFindings(read.gradebook, graded, index, {
      orgUnitId: ctx.orgUnitId,
      courseTitle: options.courseTitle,
      urls,
      referencesComplete: read.assignments !== null && read.quizzes !== null,
    });
    for (const found of gradeFindings) remember(found, found.itemType === 'course' ? urls.home() : found.itemType === 'grade-item' ? urls.gradebook() : found.url);
    findings.push(...gradeFindings);
  }

  const owners: ConditionOwnerItem[] = [
    ...options.selected.flatMap((entry) => entry.topics.filter((topic) => topic.HasReleaseConditions !== false).map((topic) => ({ owner: { kind: 'topic' as const, id: topic.TopicId }, place: topicPlace(entry.module, topic), url: urls.topic(topic.TopicId) }))),
    ...activityItems.flatMap((item): ConditionOwnerItem[] => {
      const { activity } = item;
      if (activity.kind === 'discussion-forum') return [];
      const owner = activity.kind === 'discussion-topic' ? { kind: activity.kind, id: activity.id, forumId: item.forumId ?? 0 } : { kind: activity.kind, id: activity.id };
      return [{ owner, place: item.place, url: activity.viewUrl }];
    }),
  ];
  ctx.addFindings(findings);
  const result: CourseActivities = {
    index,
    handledTopics,
    items: [...items.values()],
    releaseConditions: async () => {
      const conditionFindings = await checkReleaseConditions(ctx, owners, {
        index,
        toc: options.toc,
        gradeItems: read.gradebook === null ? null : new Set(read.gradebook.items.map((item) => item.id)),
        concurrency: options.concurrency,
      });
      for (const found of conditionFindings) if (found.itemType !== 'topic') remember(found, found.url);
      result.items = [...items.values()];
      ctx.addFindings(conditionFindings);
    },
  };
  return result;
}

/** The quicklink topics of the selected modules that open an assignment, quiz or discussion of this course. */
function quicklinkTopics(options: ActivitiesOptions, orgUnitId: number): OpeningTopic[] {
  const openers: OpeningTopic[] = [];
  const hiddenModules = new Set<number>();
  for (const entry of options.selected) {
    if (entry.module.IsHidden === true || (entry.parentModuleId !== null && hiddenModules.has(entry.parentModuleId))) hiddenModules.add(entry.module.ModuleId);
    for (const topic of entry.topics) {
      const object = options.objects.topics.get(topic.TopicId);
      const activityType = typeof topic.ActivityType === 'number' ? topic.ActivityType : (object?.activityType ?? null);
      const address = typeof topic.Url === 'string' ? topic.Url : (object?.url ?? '');
      const quicklink = address === '' ? null : parseQuicklink(address, new URL(options.urls.overview()));
      if (quicklink !== null && quicklink.orgUnitId !== null && quicklink.orgUnitId !== orgUnitId) continue;
      const kinds = activityType !== null && activityType in ACTIVITY_TYPE_KINDS ? [ACTIVITY_TYPE_KINDS[activityType]!] : (QUICKLINK_KINDS[quicklink?.type ?? ''] ?? []);
      if (kinds.length === 0) continue;
      const toolItemId = typeof topic.ToolItemId === 'number' ? topic.ToolItemId : (object?.toolItemId ?? null);
      const code = quicklink?.code ?? null;
      if (toolItemId === null && code === null) continue;
      const absolute = address === '' || !URL.canParse(address, options.urls.home()) ? null : new URL(address, options.urls.home()).href;
      openers.push({ module: entry.module, topic, kinds, toolItemId, code, visible: topic.IsHidden !== true && !hiddenModules.has(entry.module.ModuleId), address: absolute });
    }
  }
  return openers;
}

function lookUp(index: ActivityIndex, opener: OpeningTopic): ActivityLookup {
  if (opener.toolItemId !== null) {
    for (const kind of opener.kinds) {
      const found = index.byId(kind, opener.toolItemId);
      if (found.state === 'found') return found;
    }
    const byCode = opener.code === null ? null : index.byCode(opener.kinds, opener.code);
    if (byCode?.state === 'found') return byCode;
    return opener.kinds.every((kind) => index.isRead(kind)) ? { state: 'missing' } : { state: 'unknown' };
  }
  return index.byCode(opener.kinds, opener.code!);
}

interface ToolChoice {
  assignments: boolean;
  quizzes: boolean;
  discussions: boolean;
  announcements: boolean;
  overview: boolean;
  gradebook: boolean;
}

/** Reads the tools the run needs, each at most once; a tool that cannot be read is noted and left null. */
async function readTools(ctx: SourceContext, options: ActivitiesOptions, choice: ToolChoice): Promise<Read> {
  const { session, orgUnitId } = ctx;
  const ended = options.accessEndedOn;
  const counted = async <T>(reading: Promise<T>): Promise<T> => {
    const value = await reading;
    options.onRead();
    return value;
  };
  options.onPlanned(Object.values(choice).filter(Boolean).length + (choice.gradebook ? 2 : 0));
  const [assignments, quizzes, forums, announcements, overview, items, categories, setup] = await Promise.all([
    choice.assignments ? counted(readAssignments(session, orgUnitId)).then((r) => valueOf(ctx, 'assignments', r, ended)) : null,
    choice.quizzes ? counted(readQuizzes(session, orgUnitId)).then((r) => valueOf(ctx, 'quizzes', r, ended)) : null,
    choice.discussions ? counted(readForums(session, orgUnitId)).then((r) => valueOf(ctx, 'discussions', r, ended)) : null,
    choice.announcements ? counted(readAnnouncements(session, orgUnitId)).then((r) => valueOf(ctx, 'announcements', r, ended)) : null,
    choice.overview ? counted(readOverview(session, orgUnitId)).then((r) => {
      // A course without an overview answers 404 on some sites: not worth a note of its own.
      if (!r.ok && r.failure.problem === 'not-offered') return null;
      return valueOf(ctx, 'overview', r, ended);
    }) : null,
    choice.gradebook ? counted(readGradeItems(session, orgUnitId)).then((r) => valueOf(ctx, 'gradebook', r, ended)) : null,
    choice.gradebook ? counted(readGradeCategories(session, orgUnitId)).then((r) => valueOf(ctx, 'gradebook', r, ended)) : null,
    choice.gradebook ? counted(readGradeSetup(session, orgUnitId)).then((r) => valueOf(ctx, 'gradebook', r, ended)) : null,
  ]);

  let topics: DiscussionTopic[] | null = null;
  if (forums !== null) {
    options.onPlanned(forums.length);
    const byForum = new Map<number, DiscussionTopic[]>();
    let complete = true;
    await forEachLimited(forums, options.concurrency, ctx.signal, async (forum) => {
      const reading = await counted(readForumTopics(session, orgUnitId, forum.id));
      const value = valueOf(ctx, 'discussions', reading, ended);
      if (value === null) complete = false;
      else byForum.set(forum.id, value);
    });
    // A forum whose topics could not be read leaves the topics unknown rather than missing.
    topics = complete ? forums.flatMap((forum) => byForum.get(forum.id) ?? []) : null;
  }
  const gradebook = items === null ? null : { items, categories: categories ?? [], setup };
  return { assignments, quizzes, forums, topics, announcements, overview, gradebook };
}

/** The activities to check, each with its place, HTML, dates and links. */
function toActivityItems(read: Read, index: ActivityIndex, placeOf: (activity: IndexedActivity, scope: CourseScope) => FindingPlace | null, ctx: SourceContext): ActivityItem[] {
  const result: ActivityItem[] = [];
  const add = (kind: ActivityKind, id: number, scope: CourseScope, build: (activity: IndexedActivity, place: FindingPlace) => ActivityItem) => {
    const lookup = index.byId(kind, id);
    if (lookup.state !== 'found') return;
    const place = placeOf(lookup.activity, scope);
    if (place !== null) result.push(build(lookup.activity, place));
  };
  for (const assignment of read.assignments ?? []) {
    add('assignment', assignment.id, 'assignments', (activity, place) => ({
      activity,
      place,
      html: assignment.instructions,
      dates: { start: assignment.start, end: assignment.end, due: assignment.due },
      links: assignment.linkAttachments.flatMap((link) => {
        const url = resolveAddress(link.href, new URL(activity.viewUrl), ctx.orgUnitId);
        return url === undefined ? [] : [{ raw: link.href, url, element: 'link attachment', embedded: false, text: link.name }];
      }),
      gradeItemId: assignment.gradeItemId,
    }));
  }
  for (const quiz of read.quizzes ?? []) {
    add('quiz', quiz.id, 'quizzes', (activity, place) => ({
      activity,
      place,
      html: quiz.texts.map((text) => text.html).join('\n'),
      dates: { start: quiz.start, end: quiz.end, due: quiz.due },
      links: [],
      gradeItemId: quiz.gradeItemId,
    }));
  }
  for (const forum of read.forums ?? []) {
    add('discussion-forum', forum.id, 'discussions', (activity, place) => ({ activity, place, html: forum.description, dates: { start: forum.start, end: forum.end, due: null }, links: [], gradeItemId: null }));
  }
  for (const topic of read.topics ?? []) {
    add('discussion-topic', topic.id, 'discussions', (activity, place) => ({
      activity,
      place,
      html: topic.description,
      dates: { start: topic.start, end: topic.end, due: topic.due },
      links: [],
      gradeItemId: null,
      forumId: topic.forumId,
    }));
  }
  return result;
}

/** Every activity that names a grade item: assignments and quizzes read, and content topics of the selected modules. */
function gradedActivities(read: Read, options: ActivitiesOptions, index: ActivityIndex, placeOf: (activity: IndexedActivity, scope: CourseScope) => FindingPlace | null): GradedActivity[] {
  const graded: GradedActivity[] = [];
  const fromTool = (kind: ActivityKind, id: number, gradeItemId: number | null) => {
    const lookup = index.byId(kind, id);
    if (gradeItemId === null || lookup.state !== 'found') return;
    const place = placeOf(lookup.activity, 'gradebook') ?? itemPlace(kind, id, lookup.activity.title);
    graded.push({ place, url: lookup.activity.viewUrl, gradeItemId });
  };
  for (const assignment of read.assignments ?? []) fromTool('assignment', assignment.id, assignment.gradeItemId);
  for (const quiz of read.quizzes ?? []) fromTool('quiz', quiz.id, quiz.gradeItemId);
  for (const entry of options.selected) {
    for (const topic of entry.topics) {
      const object = options.objects.topics.get(topic.TopicId);
      const activityType = typeof topic.ActivityType === 'number' ? topic.ActivityType : (object?.activityType ?? null);
      // A quicklink topic repeats its activity's grade item; the activity speaks for it.
      if (object === undefined || (activityType !== null && activityType in ACTIVITY_TYPE_KINDS)) continue;
      for (const gradeItemId of object.gradeItemIds) graded.push({ place: topicPlace(entry.module, topic), url: options.urls.topic(topic.TopicId), gradeItemId });
    }
  }
  return graded;
}
