// The Brightspace-like site's course tools, in the shapes of the Valence reference: content objects
// (module and topic descriptions, due dates), assignments (a bare array), quizzes (an ObjectListPage
// with an absolute Next), discussions, announcements, the overview, the gradebook and release
// conditions. Every answer carries the fields real sites send, undocumented extras included, so the
// client's tolerance is exercised. A route can be left out (an older site, a tool turned off) and a
// list can page in any of the three forms.
import type { AnnouncementModel, AssignmentModel, CourseModel, DiscussionTopicModel, ForumModel, GradeCategoryModel, GradeItemModel, ModuleModel, PagingStyle, QuizModel, QuizQuestionModel, ReleaseConditionModel, SiteRoute, TopicModel } from './course-model.ts';

export interface ToolsSiteOptions {
  /** Routes this site does not offer (404), as on an older version or with a tool turned off. */
  missingRoutes?: SiteRoute[];
  /** How each list pages; default: quizzes as an ObjectListPage with absolute Next, the rest bare. */
  paging?: Partial<Record<'assignments' | 'quizzes' | 'questions' | 'forums' | 'topics' | 'news' | 'grades' | 'categories', PagingStyle>>;
  /** Entries per page when a list pages (default 20). */
  pageSize?: number;
}

export interface ToolAnswer {
  status: number;
  body: unknown;
}

const richText = (html: string | undefined) => ({ Text: (html ?? '').replace(/<[^>]*>/g, ''), Html: html ?? '' });
const notFound: ToolAnswer = { status: 404, body: { type: 'about:blank', status: 404, title: 'Not Found', detail: 'Resource Not Found' } };

export function activityId(kind: 'dropbox' | 'quiz' | 'discuss', course: CourseModel, id: number, code?: string): string {
  return `https://ids.brightspace.com/activities/${kind}/${code ?? defaultCode(kind, course, id)}`;
}

/** A code that is not the item's id, as on real sites (where it ends in a GUID and a counter). */
export function defaultCode(kind: 'dropbox' | 'quiz' | 'discuss', course: CourseModel, id: number): string {
  return `${course.code}-${kind}-${(id * 7919) % 100_003}`;
}

function allModules(modules: ModuleModel[]): ModuleModel[] {
  return modules.flatMap((module) => [module, ...allModules(module.modules ?? [])]);
}

const QUICKLINK_ACTIVITY = { quiz: 4, assignment: 3, discussion: 5, 'discussion-topic': 6, lti: 7 } as const;

function moduleObject(module: ModuleModel, parent: number | null): Record<string, unknown> {
  const children = [...(module.modules ?? []), ...(module.topics ?? [])];
  return {
    Structure: children.map((child) => ({ Id: child.id, Title: child.title, ShortTitle: '', Type: 'kind' in child ? 1 : 0, LastModifiedDate: '2026-01-05T10:00:00.000Z' })),
    ModuleStartDate: module.start ?? null,
    ModuleEndDate: module.end ?? null,
    ModuleDueDate: module.due ?? null,
    IsHidden: module.hidden ?? false,
    IsLocked: false,
    Id: module.id,
    Title: module.title,
    ShortTitle: '',
    Color: null,
    Type: 0,
    Description: richText(module.description),
    ParentModuleId: parent,
    Duration: null,
    LastModifiedDate: '2026-01-05T10:00:00.000Z',
  };
}

function topicObject(course: CourseModel, topic: TopicModel, parent: number, url: string | null): Record<string, unknown> {
  const quicklink = topic.kind in QUICKLINK_ACTIVITY ? (topic as { target?: number }).target ?? topic.id : null;
  const activityType = topic.kind === 'html' || topic.kind === 'file' ? 1 : topic.kind === 'link' ? 2 : QUICKLINK_ACTIVITY[topic.kind];
  return {
    TopicType: topic.kind === 'html' || topic.kind === 'file' ? 1 : 3,
    Url: url,
    StartDate: topic.start ?? null,
    EndDate: topic.end ?? null,
    DueDate: topic.due ?? null,
    IsHidden: topic.hidden ?? false,
    IsLocked: false,
    IsBroken: topic.broken ?? false,
    OpenAsExternalResource: false,
    Id: topic.id,
    Title: topic.title,
    ShortTitle: '',
    Type: 1,
    Description: richText(topic.description),
    ParentModuleId: parent,
    ActivityId: `https://ids.brightspace.com/activities/contenttopic/${course.code}-${topic.id}`,
    IsExempt: false,
    ToolId: null,
    ToolItemId: quicklink,
    ActivityType: activityType,
    GradeItemId: topic.gradeItemId ?? null,
    LastModifiedDate: '2026-01-05T10:00:00.000Z',
    AssociatedGradeItemIds: topic.gradeItemId == null ? [] : [topic.gradeItemId],
  };
}

function assignmentObject(course: CourseModel, folder: AssignmentModel): Record<string, unknown> {
  return {
    Id: folder.id,
    CategoryId: null,
    Name: folder.name,
    CustomInstructions: richText(folder.instructions),
    Attachments: [],
    TotalFiles: 0,
    UnreadFiles: 0,
    FlaggedFiles: 0,
    TotalUsers: 30,
    TotalUsersWithSubmissions: 0,
    TotalUsersWithFeedback: 0,
    Availability: folder.start || folder.end ? { StartDate: folder.start ?? null, EndDate: folder.end ?? null, StartDateAvailabilityType: 1, EndDateAvailabilityType: null } : null,
    GroupTypeId: null,
    DueDate: folder.due ?? null,
    DisplayInCalendar: true,
    Assessment: { ScoreDenominator: 10, Rubrics: [] },
    NotificationEmail: null,
    IsHidden: folder.hidden ?? false,
    LinkAttachments: (folder.links ?? []).map((link, index) => ({ LinkId: index + 1, LinkName: link.name, Href: link.href })),
    ActivityId: activityId('dropbox', course, folder.id, folder.code),
    IsAnonymous: false,
    DropboxType: 2,
    SubmissionType: 0,
    CompletionType: 0,
    GradeItemId: folder.gradeItemId ?? null,
    AllowOnlyUsersWithSpecialAccess: false,
    // Undocumented keys real sites send.
    AllowableFileType: 0,
    CustomAllowableFileTypes: null,
  };
}

function quizObject(course: CourseModel, quiz: QuizModel): Record<string, unknown> {
  const block = (html: string | undefined) => ({ Text: richText(html), IsDisplayed: (html ?? '') !== '' });
  return {
    ActivityId: activityId('quiz', course, quiz.id, quiz.code),
    AllowHints: false,
    AllowOnlyUsersWithSpecialAccess: false,
    AttemptsAllowed: { IsUnlimited: false, NumberOfAttemptsAllowed: 1 },
    AutoExportToGrades: true,
    CalcTypeId: 1,
    CategoryId: null,
    DeductionPercentage: null,
    Description: block(quiz.description),
    DisablePagerAndAlerts: false,
    DisableRightClick: false,
    DisplayInCalendar: true,
    DueDate: quiz.due ?? null,
    EndDate: quiz.end ?? null,
    Footer: block(undefined),
    GradeItemId: quiz.gradeItemId ?? null,
    Header: block(undefined),
    HideQuestionPoints: false,
    Instructions: block(quiz.instructions),
    IsActive: quiz.active ?? true,
    IsAutoSetGraded: true,
    IsRetakeIncorrectOnly: false,
    IsSingleSession: false,
    IsSynchronous: false,
    LateSubmissionInfo: { LateSubmissionOption: 0, LateLimitMinutes: null },
    Name: quiz.name,
    NotificationEmail: null,
    PagingTypeId: null,
    Password: null,
    PreventMovingBackwards: false,
    QuizId: quiz.id,
    RestrictIPAddressRange: [],
    Shuffle: false,
    SortOrder: quiz.id,
    StartDate: quiz.start ?? null,
    SubmissionGracePeriod: null,
    SubmissionTimeLimit: { IsEnforced: false, ShowClock: false, TimeLimitValue: 0 },
  };
}

/** A question as QuestionData (quizzes/{id}/questions/): its type decides the shape of QuestionInfo. */
function questionObject(question: QuizQuestionModel): Record<string, unknown> {
  const rich = (html: string | undefined) => richText(html);
  let type = 8; // written response
  let info: Record<string, unknown> | null = null;
  if (question.answers !== undefined) {
    type = 1;
    info = {
      Answers: question.answers.map((answer, index) => ({ PartId: question.id * 100 + index, Answer: rich(answer.html), AnswerFeedback: rich(answer.feedback), Weight: answer.weight ?? 0 })),
      Randomize: false,
      Enumeration: 4,
    };
  } else if (question.trueFalse !== undefined) {
    type = 2;
    info = { TruePartId: question.id * 100, TrueWeight: 100, TrueFeedback: rich(question.trueFalse.trueFeedback), FalsePartId: question.id * 100 + 1, FalseWeight: 0, FalseFeedback: rich(question.trueFalse.falseFeedback), Enumeration: 4 };
  }
  return {
    QuestionId: question.id,
    QuestionTypeId: type,
    Name: question.name ?? '',
    QuestionText: rich(question.text),
    Points: 1,
    Difficulty: 1,
    Bonus: false,
    Mandatory: false,
    Hint: question.hint === undefined ? null : rich(question.hint),
    Feedback: rich(question.feedback),
    LastModifiedBy: 3001,
    LastModified: '2026-08-20T14:00:00.000Z',
    SectionId: null,
    QuestionTemplateId: question.id,
    QuestionTemplateVersionId: 1,
    QuestionInfo: info,
  };
}

function forumObject(forum: ForumModel): Record<string, unknown> {
  return {
    ForumId: forum.id,
    StartDate: forum.start ?? null,
    EndDate: forum.end ?? null,
    PostStartDate: null,
    PostEndDate: null,
    Name: forum.name,
    Description: richText(forum.description),
    ShowDescriptionInTopics: false,
    AllowAnonymous: false,
    IsLocked: false,
    IsHidden: forum.hidden ?? false,
    RequiresApproval: false,
    DisplayInCalendar: false,
    DisplayPostDatesInCalendar: false,
    StartDateAvailabilityType: null,
    EndDateAvailabilityType: null,
  };
}

function discussionTopicObject(course: CourseModel, forum: ForumModel, topic: DiscussionTopicModel): Record<string, unknown> {
  return {
    ForumId: forum.id,
    TopicId: topic.id,
    Name: topic.name,
    Description: richText(topic.description),
    StartDate: topic.start ?? null,
    EndDate: topic.end ?? null,
    UnlockStartDate: null,
    UnlockEndDate: null,
    IsLocked: false,
    AllowAnonymousPosts: false,
    RequiresApproval: false,
    UnApprovedPostCount: 0,
    PinnedPostCount: 0,
    ScoringType: null,
    IsAutoScore: false,
    ScoreOutOf: null,
    IncludeNonScoredValues: false,
    ScoredCount: 0,
    RatingsSum: 0,
    RatingsCount: 0,
    IsHidden: topic.hidden ?? false,
    MustPostToParticipate: false,
    RatingType: 0,
    ActivityId: activityId('discuss', course, topic.id, topic.code),
    GroupTypeId: null,
    StartDateAvailabilityType: null,
    EndDateAvailabilityType: null,
    DueDate: topic.due ?? null,
  };
}

function newsObject(item: AnnouncementModel): Record<string, unknown> {
  return {
    Id: item.id,
    IsHidden: item.hidden ?? false,
    Attachments: [],
    Title: item.title,
    Body: richText(item.body),
    CreatedBy: 3001,
    CreatedDate: '2026-01-05T10:00:00.000Z',
    LastModifiedBy: 3001,
    LastModifiedDate: '2026-01-05T10:00:00.000Z',
    StartDate: item.start ?? null,
    EndDate: item.end ?? null,
    IsGlobal: false,
    IsPublished: item.published ?? true,
    ShowOnlyInCourseOfferings: false,
    IsAuthorInfoShown: true,
    IsPinned: false,
    PinnedDate: null,
    IsStartDateShown: true,
    SortOrder: item.id,
  };
}

function gradeObject(course: CourseModel, version: string, item: GradeItemModel): Record<string, unknown> {
  const type = item.type ?? 'Numeric';
  const common = {
    Id: item.id,
    Name: item.name,
    ShortName: '',
    GradeType: type,
    // Live sites report an item outside every category as 0.
    CategoryId: item.categoryId ?? 0,
    Description: { Text: '', Html: '' },
    Weight: item.weight ?? 0,
    AssociatedTool: item.tool ? { ToolId: item.tool.toolId, ToolItemId: item.tool.toolItemId } : null,
    IsHidden: false,
  };
  if (type === 'Text' || type === 'Calculated' || type === 'Formula' || type === 'FinalCalculated' || type === 'FinalAdjusted') return common;
  return {
    MaxPoints: item.maxPoints ?? 10,
    CanExceedMaxPoints: false,
    IsBonus: item.bonus ?? false,
    ExcludeFromFinalGradeCalculation: item.excluded ?? false,
    GradeSchemeId: null,
    GradeSchemeUrl: `/d2l/api/le/${version}/${course.orgUnitId}/grades/schemes/0`,
    ...common,
  };
}

function categoryObject(course: CourseModel, version: string, category: GradeCategoryModel, items: GradeItemModel[]): Record<string, unknown> {
  return {
    Id: category.id,
    Grades: items.filter((item) => item.categoryId === category.id).map((item) => gradeObject(course, version, item)),
    Name: category.name,
    ShortName: '',
    CanExceedMax: false,
    ExcludeFromFinalGrade: category.excluded ?? false,
    StartDate: null,
    EndDate: null,
    Weight: category.weight ?? null,
    MaxPoints: 100,
    AutoPoints: true,
    WeightDistributionType: category.weight == null ? null : 0,
    NumberOfHighestToDrop: 0,
    NumberOfLowestToDrop: 0,
    // A newer site's additions, in the write shape some sites answer with.
    Description: { Content: '', Type: 'Text' },
    ShowDescription: false,
  };
}

function conditionsObject(model: ReleaseConditionModel | undefined): Record<string, unknown> {
  return {
    Expression: {
      Type: 'Expression',
      State: null,
      Text: { Text: '', Html: null },
      ExpressionParams: {
        Operator: 'All',
        Operands: (model?.conditions ?? []).map((condition) => ({ Type: condition.type, State: 'opaque-state', Text: { Text: condition.text, Html: null }, ...condition.params })),
      },
    },
  };
}

/** A list in the paging style asked for, page `bookmark` of it. */
function paged(items: unknown[], style: PagingStyle, url: URL, origin: string, pageSize: number): unknown {
  if (style === 'bare') return items;
  const start = Number(url.searchParams.get('bookmark') ?? '0') || 0;
  const page = items.slice(start, start + pageSize);
  const more = start + pageSize < items.length;
  const next = new URL(url.pathname, origin);
  next.searchParams.set('bookmark', String(start + pageSize));
  if (style === 'paged-result-set') return { PagingInfo: { Bookmark: more ? String(start + pageSize) : '', HasMoreItems: more }, Items: page };
  const nextText = style === 'objects-absolute' ? next.href : `${next.pathname}${next.search}`;
  return { Objects: page, Next: more ? nextText : style === 'objects-relative' ? '' : null };
}

export interface ToolsContext {
  course: CourseModel;
  version: string;
  origin: string;
  options: ToolsSiteOptions;
  topicUrl(topic: TopicModel): string | null;
}

/** Answers an LE route of a course's tools (the part after /d2l/api/le/{v}/{ou}/); null when it is not one. */
export function courseToolRoute(context: ToolsContext, route: string, url: URL): ToolAnswer | null {
  const { course, options } = context;
  const missing = new Set(options.missingRoutes ?? []);
  const pageSize = options.pageSize ?? 20;
  const list = (name: keyof NonNullable<ToolsSiteOptions['paging']>, items: unknown[], fallback: PagingStyle = 'bare'): ToolAnswer => ({
    status: 200,
    body: paged(items, options.paging?.[name] ?? fallback, url, context.origin, pageSize),
  });
  const modules = allModules(course.modules);
  const parentOf = new Map<number, number>();
  for (const module of modules) {
    for (const child of module.modules ?? []) parentOf.set(child.id, module.id);
    for (const topic of module.topics ?? []) parentOf.set(topic.id, module.id);
  }
  const childrenOf = (module: ModuleModel) => [
    ...(module.modules ?? []).map((child) => moduleObject(child, module.id)),
    ...(module.topics ?? []).map((topic) => topicObject(course, topic, module.id, context.topicUrl(topic))),
  ];
  const conditions = (owner: ReleaseConditionModel['owner'], id: number): ToolAnswer =>
    missing.has('release-conditions') ? notFound : { status: 200, body: conditionsObject(course.releaseConditions?.find((entry) => entry.owner === owner && entry.ownerId === id)) };
  let match: RegExpExecArray | null;

  if (/^content\/(root\/|modules\/|topics\/\d+$)/.test(route) && missing.has('content-objects')) return notFound;
  if (route === 'content/root/') return { status: 200, body: course.modules.map((module) => moduleObject(module, null)) };
  if ((match = /^content\/modules\/(\d+)(\/structure\/)?$/.exec(route))) {
    const module = modules.find((entry) => entry.id === Number(match![1]));
    if (module === undefined) return notFound;
    return { status: 200, body: match[2] ? childrenOf(module) : moduleObject(module, parentOf.get(module.id) ?? null) };
  }
  if ((match = /^content\/topics\/(\d+)(\/releaseconditions)?$/.exec(route))) {
    const topic = modules.flatMap((module) => module.topics ?? []).find((entry) => entry.id === Number(match![1]));
    if (topic === undefined) return notFound;
    if (match[2]) return conditions('topic', topic.id);
    return { status: 200, body: topicObject(course, topic, parentOf.get(topic.id)!, context.topicUrl(topic)) };
  }

  if (route.startsWith('dropbox/') && missing.has('dropbox')) return notFound;
  if (route === 'dropbox/folders/') return list('assignments', (course.assignments ?? []).map((folder) => assignmentObject(course, folder)));
  if ((match = /^dropbox\/folders\/(\d+)(\/releaseconditions)?$/.exec(route))) {
    const folder = course.assignments?.find((entry) => entry.id === Number(match![1]));
    if (folder === undefined) return notFound;
    return match[2] ? conditions('assignment', folder.id) : { status: 200, body: assignmentObject(course, folder) };
  }

  if (route.startsWith('quizzes/') && missing.has('quizzes')) return notFound;
  if (route === 'quizzes/') return list('quizzes', (course.quizzes ?? []).map((quiz) => quizObject(course, quiz)), 'objects-absolute');
  if ((match = /^quizzes\/(\d+)(\/releaseconditions|\/questions\/)?$/.exec(route))) {
    const quiz = course.quizzes?.find((entry) => entry.id === Number(match![1]));
    if (quiz === undefined) return notFound;
    if (match[2] === '/questions/') {
      if (missing.has('quiz-questions')) return notFound;
      if (quiz.questionsForbidden) return { status: 403, body: { type: 'about:blank', status: 403, title: 'Forbidden', detail: 'Not authorized to view quiz questions.' } };
      return list('questions', (quiz.questions ?? []).map(questionObject), 'objects-absolute');
    }
    return match[2] ? conditions('quiz', quiz.id) : { status: 200, body: quizObject(course, quiz) };
  }

  if (route.startsWith('discussions/') && missing.has('discussions')) return notFound;
  if (route === 'discussions/forums/') return list('forums', (course.forums ?? []).map(forumObject));
  if ((match = /^discussions\/forums\/(\d+)\/topics\/((\d+)(\/releaseconditions)?)?$/.exec(route))) {
    const forum = course.forums?.find((entry) => entry.id === Number(match![1]));
    if (forum === undefined) return notFound;
    if (match[2] === undefined) return list('topics', (forum.topics ?? []).map((topic) => discussionTopicObject(course, forum, topic)));
    const topic = forum.topics?.find((entry) => entry.id === Number(match![3]));
    if (topic === undefined) return notFound;
    return match[4] ? conditions('discussion-topic', topic.id) : { status: 200, body: discussionTopicObject(course, forum, topic) };
  }

  if (route.startsWith('news/') && missing.has('news')) return notFound;
  if (route === 'news/') return list('news', (course.announcements ?? []).map(newsObject));

  if (route === 'overview') {
    if (missing.has('overview') || course.overview === undefined) return notFound;
    return { status: 200, body: { Description: richText(course.overview), HasAttachment: false } };
  }

  if (route.startsWith('grades/') && missing.has('grades')) return notFound;
  const gradebook = course.gradebook ?? { system: 'Points', items: [] };
  if (route === 'grades/') return list('grades', gradebook.items.map((item) => gradeObject(course, context.version, item)));
  if (route === 'grades/categories/') return list('categories', (gradebook.categories ?? []).map((category) => categoryObject(course, context.version, category, gradebook.items)));
  if (route === 'grades/setup/') return { status: 200, body: { GradingSystem: gradebook.system, IsNullGradeZero: false, DefaultGradeSchemeId: 0 } };
  return null;
}

/** The course offering as lp courses/{ou} returns it. */
export function courseOfferingObject(course: CourseModel): Record<string, unknown> {
  return {
    Identifier: String(course.orgUnitId),
    Name: course.name,
    Code: course.code,
    IsActive: true,
    Path: `/content/enforced/${course.orgUnitId}-${course.code}/`,
    StartDate: course.start ?? null,
    EndDate: course.end ?? null,
    LocaleId: null,
    ForceLocale: false,
    CourseTemplate: { Identifier: '6600', Name: course.name, Code: course.code },
    Semester: null,
    Department: null,
    Description: { Text: '', Html: '' },
    CanSelfRegister: false,
  };
}
