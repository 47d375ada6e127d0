// The pages where a person sees each kind of course item in Brightspace, for the report's links.
// Built from the ids alone, as Brightspace's own links are; quizzes and assignments open on the
// page a student sees, discussions on the topic, announcements on the item.
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
