// Brightspace's own addresses of course items, both ways: the pages where a person sees each kind
// of item (for the report's links), and what an address of the course's site opens (a topic, a
// module, an activity, a course file, another org unit) for the checks of links into the course.
// One place knows these address forms, so building and reading them cannot drift apart.
export interface ItemUrls {
  module(moduleId: number): string;
  topic(topicId: number): string;
  assignment(folderId: number): string;
  quiz(quizId: number): string;
  forum(forumId: number): string;
  discussionTopic(topicId: number): string;
  announcement(newsId: number): string;
  gradebook(): string;
  overview(): string;
  /** The course's home page, for what concerns the course as a whole. */
  home(): string;
}

// Built from the ids alone, as Brightspace's own links are; quizzes and assignments open on the
// page a student sees, discussions on the topic, announcements on the item.
export function itemUrls(origin: URL, orgUnitId: number): ItemUrls {
  const at = (path: string) => new URL(path, origin).href;
  return {
    module: (id) => at(`/d2l/le/content/${orgUnitId}/Home?itemIdentifier=D2L.LE.Content.ContentObject.ModuleCO-${id}`),
    topic: (id) => at(`/d2l/le/content/${orgUnitId}/viewContent/${id}/View`),
    assignment: (id) => at(`/d2l/lms/dropbox/user/folder_submit_files.d2l?db=${id}&ou=${orgUnitId}`),
    quiz: (id) => at(`/d2l/lms/quizzing/user/quiz_summary.d2l?qi=${id}&ou=${orgUnitId}`),
    forum: () => at(`/d2l/le/${orgUnitId}/discussions/List`),
    discussionTopic: (id) => at(`/d2l/le/${orgUnitId}/discussions/topics/${id}/View`),
    announcement: (id) => at(`/d2l/le/news/${orgUnitId}/${id}/view?ou=${orgUnitId}`),
    gradebook: () => at(`/d2l/lms/grades/admin/manage/gradeslist.d2l?ou=${orgUnitId}`),
    overview: () => at(`/d2l/le/content/${orgUnitId}/Home`),
    home: () => at(`/d2l/home/${orgUnitId}`),
  };
}

/** The course tools whose items CTPO reads: the activities a quicklink or an address may open. */
export type ActivityKind = 'assignment' | 'quiz' | 'discussion-forum' | 'discussion-topic';

/** Content activity types (a table of contents' ActivityType) that open a tool's item. */
export const ACTIVITY_TYPE_KINDS: Readonly<Record<number, ActivityKind>> = { 3: 'assignment', 4: 'quiz', 5: 'discussion-forum', 6: 'discussion-topic' };

/**
 * What a quicklink's `type=` opens: activities of these kinds (a discussion quicklink names a topic
 * or a forum), a content topic by its code, or (an empty list) a tool CTPO does not read.
 */
const QUICKLINK_TYPES: Readonly<Record<string, readonly ActivityKind[] | 'topic'>> = {
  dropbox: ['assignment'],
  quiz: ['quiz'],
  discuss: ['discussion-topic', 'discussion-forum'],
  content: 'topic',
  checklist: [],
  survey: [],
  selfassess: [],
};

const QUICKLINK_PATH = /^\/d2l\/common\/dialogs\/quicklink\/quicklink\.d2l$/i;

/** A Brightspace quicklink (`/d2l/common/dialogs/quickLink/quickLink.d2l?ou=&type=&rcode=`). */
export interface Quicklink {
  /** Its `type=`, lower-cased. */
  type: string;
  /** What that type opens; null for a type CTPO does not know. */
  opens: readonly ActivityKind[] | 'topic' | null;
  /** Its `rcode` (or `rCode`): the code of the item it opens. */
  code: string | null;
  /** The org unit in its `ou=`. */
  orgUnitId: number | null;
}

/** The value of a query parameter, whatever the case of its name. */
function parameter(url: URL, name: string): string | null {
  for (const [key, value] of url.searchParams) if (key.toLowerCase() === name) return value;
  return null;
}

function idOf(value: string | null): number | null {
  return value !== null && /^\d{1,15}$/.test(value) ? Number(value) : null;
}

/** The quicklink an address is (relative addresses against `base`), or null when it is not one. */
export function parseQuicklink(address: string | URL, base?: URL): Quicklink | null {
  let url: URL;
  try {
    url = new URL(address, base);
  } catch {
    return null;
  }
  if (!QUICKLINK_PATH.test(url.pathname)) return null;
  const type = (parameter(url, 'type') ?? '').toLowerCase();
  const code = parameter(url, 'rcode')?.trim() ?? '';
  return { type, opens: QUICKLINK_TYPES[type] ?? null, code: code === '' ? null : code, orgUnitId: idOf(parameter(url, 'ou')) };
}

/** Where an address of the course's site leads, when it is one of Brightspace's own item addresses. */
export type InternalTarget =
  | { kind: 'topic'; id: number }
  | { kind: 'module'; id: number }
  /** A content topic named by its code (a content quicklink). */
  | { kind: 'topic-code'; code: string }
  /** An activity by its id in its tool, or by its code; a tool CTPO does not read has no kinds. */
  | { kind: 'activity'; kinds: readonly ActivityKind[]; id?: number; code?: string }
  | { kind: 'file'; path: string };

/**
 * The item of this course an address opens, when it is one of Brightspace's own item addresses on
 * the course's site: content viewer and lessons pages, quicklinks, the quiz, assignment and
 * discussion pages, and course files. Null for anything else, including addresses into other org
 * units (see orgUnitOf).
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
  const quicklink = parseQuicklink(url);
  if (quicklink !== null) {
    if (parameter(url, 'ou') !== ou || quicklink.opens === null || quicklink.code === null) return null;
    return quicklink.opens === 'topic' ? { kind: 'topic-code', code: quicklink.code } : { kind: 'activity', kinds: quicklink.opens, code: quicklink.code };
  }
  if (/^\/d2l\/lms\/quizzing\/user\/quiz_summary\.d2l$/i.test(path) && parameter(url, 'ou') === ou) {
    const quiz = idOf(parameter(url, 'qi'));
    return quiz === null ? null : { kind: 'activity', kinds: ['quiz'], id: quiz };
  }
  if (/^\/d2l\/lms\/dropbox\/user\/folder_submit_files\.d2l$/i.test(path) && parameter(url, 'ou') === ou) {
    const folder = idOf(parameter(url, 'db'));
    return folder === null ? null : { kind: 'activity', kinds: ['assignment'], id: folder };
  }
  if ((match = /^\/d2l\/le\/(\d+)\/discussions\/(topics|forums)\/(\d+)(?:\/|$)/i.exec(path)) && match[1] === ou) {
    return { kind: 'activity', kinds: [match[2]!.toLowerCase() === 'topics' ? 'discussion-topic' : 'discussion-forum'], id: Number(match[3]) };
  }
  if (/^\/content\/enforced\/\d+-/i.test(path) && path.startsWith(`/content/enforced/${ou}-`)) return { kind: 'file', path };
  return null;
}

// Where Brightspace puts an org unit id in its own addresses.
const ORG_UNIT_PATHS = [
  /^\/d2l\/le\/content\/(\d+)\//i,
  /^\/d2l\/le\/(\d+)\//i,
  /^\/d2l\/home\/(\d+)(?:\/|$)/i,
  /^\/content\/enforced\/(\d+)-/i,
  /^\/d2l\/lms\/[^?]*\/(\d+)(?:\/|$)/i,
  /^\/d2l\/api\/le\/[\d.]+\/(\d+)\//i,
  /^\/d2l\/api\/lp\/[\d.]+\/(?:courses|orgstructure)\/(\d+)(?:\/|$)/i,
];
const ORG_UNIT_QUERY = ['ou', 'orgunitid', 'orgunit'];

/**
 * The org unit an address points into, when it is a Brightspace address: on the course's own site
 * (paths and the `ou` query) or on any host by Brightspace's distinctive paths.
 */
export function orgUnitOf(url: URL, siteOrigin: URL): number | null {
  const ownSite = url.host === siteOrigin.host;
  const brightspacePath = /^\/(d2l|content\/enforced)\//i.test(url.pathname);
  if (!ownSite && !brightspacePath) return null;
  for (const pattern of ORG_UNIT_PATHS) {
    const match = pattern.exec(url.pathname);
    if (match) return Number(match[1]);
  }
  for (const [name, value] of url.searchParams) {
    if (ORG_UNIT_QUERY.includes(name.toLowerCase()) && /^\d{1,15}$/.test(value)) return Number(value);
  }
  return null;
}
