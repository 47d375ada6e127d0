// The topics of the selected modules: HTML file topics are read with the session and handed on as
// whole pages, PDF, Word and PowerPoint files as documents (sources/documents.ts), link topics as
// the address they open; every other kind is handed on as unreadable, with why and the address it
// opens (a quicklink into another course is still a link into it).
import pLimit from 'p-limit';
import { topicPlace } from '../brightspace/places.ts';
import type { SelectedModule } from '../brightspace/toc.ts';
import { classifyTopic } from '../brightspace/toc.ts';
import type { TocTopic } from '../brightspace/types.ts';
import { resolveAddress } from '../extract/html.ts';
import { msg } from '../i18n/messages.ts';
import type { SourceContext } from './course-items.ts';
import type { CourseDocuments } from './documents.ts';

export interface TopicPagesOptions {
  /** Topics read from the site at once. */
  concurrency: number;
  /** Takes the File topics that are PDF, Word or PowerPoint files (read once the pages are). */
  documents: CourseDocuments;
  /** Topics another source has handed on already (quicklinks whose activity was read). */
  handled?: ReadonlySet<number>;
}

export async function readTopicPages(ctx: SourceContext, selected: SelectedModule[], options: TopicPagesOptions): Promise<void> {
  const { origin, orgUnitId } = ctx;
  const jobs: { entry: SelectedModule; topic: TocTopic }[] = selected.flatMap((entry) =>
    entry.topics.filter((topic) => options.handled?.has(topic.TopicId) !== true).map((topic) => ({ entry, topic })),
  );
  let topicsDone = 0;
  const topicDone = () => ctx.progress('topics', ++topicsDone, jobs.length);
  ctx.progress('topics', 0, jobs.length);

  await pLimit(options.concurrency).map(jobs, async ({ entry, topic }) => {
    ctx.signal?.throwIfAborted();
    const place = topicPlace(entry.module, topic);
    const kind = classifyTopic(topic);

    if (kind.kind === 'unreadable') {
      const opens = kind.url === null ? undefined : resolveAddress(kind.url, origin, orgUnitId);
      await ctx.emit({ place, url: null, unreadable: { reason: kind.reason, ...(opens ? { opens } : {}) } }, topicDone);
      return;
    }

    if (kind.kind === 'link') {
      const url = resolveAddress(kind.url, origin, orgUnitId);
      if (url === undefined) {
        await ctx.emit({ place, url: null, unreadable: { reason: msg('reason.topic.link-not-web') } }, topicDone);
        return;
      }
      await ctx.emit({ place, url: null, isTopic: true, links: [{ raw: kind.url, url, element: 'topic', embedded: false, text: topic.Title }] }, topicDone);
      return;
    }

    if (kind.kind === 'document') {
      options.documents.addTopic(place, topic, new URL(kind.path, origin), kind.type, topicDone);
      return;
    }

    const pageUrl = new URL(kind.path, origin);
    const file = await ctx.session.getTopicHtml(orgUnitId, topic.TopicId);
    if (!file.ok) {
      await ctx.emit({ place, url: pageUrl.href, unreadable: { reason: file.reason } }, topicDone);
      return;
    }
    await ctx.emit({ place, url: pageUrl.href, isTopic: true, html: { content: file.html, baseUrl: pageUrl, whole: true } }, topicDone);
  });
}
