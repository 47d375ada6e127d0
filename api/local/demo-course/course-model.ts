// The demo site's course, as data: modules and topics, and the tools' items (assignments,
// quizzes, discussions, news, grades, release conditions) that the site serves as Brightspace does.

export type SiteRoute = 'content-objects' | 'dropbox' | 'quizzes' | 'quiz-questions' | 'discussions' | 'news' | 'overview' | 'grades' | 'release-conditions';
export type PagingStyle = 'bare' | 'objects-absolute' | 'objects-relative' | 'paged-result-set';

export interface AssignmentModel {
  id: number;
  name: string;
  instructions?: string;
  hidden?: boolean;
  start?: string | null;
  end?: string | null;
  due?: string | null;
  gradeItemId?: number | null;
  links?: { name: string; href: string }[];
  /** The tail of its ActivityId, which quicklinks carry as rcode. */
  code?: string;
}

export interface QuizModel {
  id: number;
  name: string;
  description?: string;
  instructions?: string;
  /** Inactive quizzes are not available to students. */
  active?: boolean;
  start?: string | null;
  end?: string | null;
  due?: string | null;
  gradeItemId?: number | null;
  code?: string;
  /** Its questions; the questions route answers 403 when `questionsForbidden`. */
  questions?: QuizQuestionModel[];
  questionsForbidden?: boolean;
}

/** A quiz question: a multiple-choice one with `answers`, a true/false one with `trueFalse`, else written response. */
export interface QuizQuestionModel {
  id: number;
  name?: string;
  text: string;
  answers?: { html: string; feedback?: string; weight?: number }[];
  trueFalse?: { trueFeedback?: string; falseFeedback?: string };
  feedback?: string;
  hint?: string;
}

export interface DiscussionTopicModel {
  id: number;
  name: string;
  description?: string;
  hidden?: boolean;
  start?: string | null;
  end?: string | null;
  due?: string | null;
  code?: string;
}

export interface ForumModel {
  id: number;
  name: string;
  description?: string;
  hidden?: boolean;
  start?: string | null;
  end?: string | null;
  topics?: DiscussionTopicModel[];
}

export interface AnnouncementModel {
  id: number;
  title: string;
  body: string;
  hidden?: boolean;
  published?: boolean;
  start?: string | null;
  end?: string | null;
}

export interface GradeItemModel {
  id: number;
  name: string;
  /** Numeric by default. */
  type?: 'Numeric' | 'PassFail' | 'SelectBox' | 'Text' | 'Calculated' | 'Formula' | 'FinalCalculated' | 'FinalAdjusted';
  categoryId?: number | null;
  weight?: number;
  maxPoints?: number;
  bonus?: boolean;
  excluded?: boolean;
  tool?: { toolId: number; toolItemId: number } | null;
}

export interface GradeCategoryModel {
  id: number;
  name: string;
  weight?: number | null;
  excluded?: boolean;
}

export interface GradebookModel {
  system: 'Points' | 'Weighted' | 'Formula';
  categories?: GradeCategoryModel[];
  items: GradeItemModel[];
}

export interface ReleaseConditionModel {
  owner: 'topic' | 'quiz' | 'assignment' | 'discussion-topic';
  ownerId: number;
  conditions: { type: string; text: string; params?: Record<string, unknown> }[];
}

/** What a course has besides its table of contents. */
export interface CourseToolsModel {
  /** The course offering's own dates. */
  start?: string | null;
  end?: string | null;
  assignments?: AssignmentModel[];
  quizzes?: QuizModel[];
  forums?: ForumModel[];
  announcements?: AnnouncementModel[];
  /** The overview's HTML; undefined: the course has none (404). */
  overview?: string;
  gradebook?: GradebookModel;
  releaseConditions?: ReleaseConditionModel[];
}

export interface CourseModel extends CourseToolsModel {
  orgUnitId: number;
  name: string;
  code: string;
  /** User names that may not open this course. */
  forbiddenFor?: string[];
  /** The course's access window has closed: its LE routes answer 403 to everyone, its offering still reads. */
  accessClosed?: boolean;
  modules: ModuleModel[];
}

interface Dated {
  hidden?: boolean;
  start?: string | null;
  end?: string | null;
  due?: string | null;
  /** Raw fields merged into the toc entry, e.g. to drop or break a field. */
  raw?: Record<string, unknown>;
}

export interface ModuleModel extends Dated {
  id: number;
  title: string;
  /** The description's HTML (content objects only; the table of contents carries none). */
  description?: string;
  modules?: ModuleModel[];
  topics?: TopicModel[];
}

export type TopicModel = Dated & {
  id: number;
  title: string;
  broken?: boolean;
  /** The description's HTML (content objects only). */
  description?: string;
  gradeItemId?: number | null;
} & (
    | { kind: 'html'; fileName: string; html: string }
    | { kind: 'file'; fileName: string; contentType: string; body?: string | Buffer }
    | { kind: 'link'; url: string }
    /** A quicklink to a tool item: `target` is its id (the topic's id by default). */
    | { kind: 'quiz' | 'assignment' | 'discussion' | 'discussion-topic' | 'lti'; url?: string; target?: number }
  );

