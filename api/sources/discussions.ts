// The discussions tool: the forums, then each forum's topics (one request per forum), as activity
// records. A topic of a hidden forum is hidden from students too.
import { readForums, readForumTopics, type DiscussionTopic } from '../brightspace/discussions.ts';
import pLimit from 'p-limit';
import type { ActivityRecord, ToolReading } from './activity-record.ts';
import { valueOf } from './read-notes.ts';

export interface Discussions {
  forums: ActivityRecord[];
  /** Null when the topics of some forum could not be read: they are then unknown, never missing. */
  topics: ActivityRecord[] | null;
}

/** Every forum and discussion topic of the course; null (and a note) when the forums cannot be read. */
export async function readDiscussionTool(tool: ToolReading): Promise<Discussions | null> {
  const { ctx, urls } = tool;
  const forums = valueOf(ctx, 'discussions', await tool.counted(readForums(ctx.session, ctx.orgUnitId)), tool.accessEndedOn);
  if (forums === null) return null;
  tool.planned(forums.length);
  const byForum = new Map<number, DiscussionTopic[]>();
  let complete = true;
  await pLimit(tool.concurrency).map(forums, async (forum) => {
    ctx.signal?.throwIfAborted();
    const value = valueOf(ctx, 'discussions', await tool.counted(readForumTopics(ctx.session, ctx.orgUnitId, forum.id)), tool.accessEndedOn);
    if (value === null) complete = false;
    else byForum.set(forum.id, value);
  });
  const hiddenForums = new Set(forums.filter((forum) => forum.hidden).map((forum) => forum.id));
  return {
    forums: forums.map((forum): ActivityRecord => ({
      activity: { kind: 'discussion-forum', id: forum.id, title: forum.name, hidden: forum.hidden, code: null, viewUrl: urls.forum(forum.id) },
      scope: 'discussions',
      html: forum.description,
      dates: { start: forum.start, end: forum.end, due: null },
      links: [],
      gradeItemId: null,
      conditionOwner: null,
    })),
    topics: !complete ? null : forums.flatMap((forum) => byForum.get(forum.id) ?? []).map((topic): ActivityRecord => ({
      activity: { kind: 'discussion-topic', id: topic.id, title: topic.name, hidden: topic.hidden || hiddenForums.has(topic.forumId), code: topic.code, viewUrl: urls.discussionTopic(topic.id) },
      scope: 'discussions',
      html: topic.description,
      dates: { start: topic.start, end: topic.end, due: topic.due },
      links: [],
      gradeItemId: null,
      conditionOwner: { kind: 'discussion-topic', id: topic.id, forumId: topic.forumId },
    })),
  };
}
