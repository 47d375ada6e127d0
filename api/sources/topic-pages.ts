// The topics of the selected modules: HTML file topics are read with the session and checked as
// whole pages, PDF, Word and PowerPoint files as documents (sources/documents.ts), link topics as
// the address they open; every other kind is listed as not scanned,
// with why (a quicklink into another course is still reported as one).
import type { SelectedModule } from '../brightspace/toc.ts';
import { classifyTopic } from '../brightspace/toc.ts';
import type { TocTopic } from '../brightspace/types.ts';
import { finding } from '../checks/catalogue.ts';
import { topicPlace } from '../checks/finding.ts';
import { resolveAddress } from '../extract/html.ts';
import { orgUnitOf } from '../checks/links.ts';
import { msg } from '../i18n/messages.ts';
import { forEachLimited, type SourceContext } from './course-items.ts';
import type { CourseDocuments } from './documents.ts';

export interface TopicPagesOptions {
  /** Topics read from the site at once. */
  concurrency: number;
  /** Takes the File topics that are PDF, Word or PowerPoint files (read once the pages are). */
  documents: CourseDocuments;
  /** Topics another source has checked already (quicklinks whose activity was read). */
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

  await forEachLimited(jobs, options.concurrency, ctx.signal, async ({ entry, topic }) => {
    const place = topicPlace(entry.module, topic);
    const kind = classifyTopic(topic);

    if (kind.kind === 'unreadable') {
      ctx.notScanned({ ...place, title: topic.Title, reason: kind.reason });
      // A quicklink to a quiz or assignment of another course is still a link into it.
      const target = kind.url === null ? undefined : resolveAddress(kind.url, origin, orgUnitId);
      if (target) {
        const other = orgUnitOf(new URL(target), origin);
        if (other !== null && other !== orgUnitId) {
          ctx.addFindings([finding('link.cross-course', place, target, msg('finding.link.topic-cross-course', { orgUnitId: String(other) }), { element: 'topic', subject: target })]);
        }
      }
      topicDone();
      return;
    }

    if (kind.kind === 'link') {
      const url = resolveAddress(kind.url, origin, orgUnitId);
      if (url === undefined) {
        ctx.notScanned({ ...place, title: topic.Title, reason: msg('reason.topic.link-not-web') });
        topicDone();
        return;
      }
      await ctx.check({ place, url: null, links: [{ raw: kind.url, url, element: 'topic', embedded: false, text: topic.Title }] }, topicDone);
      return;
    }

    if (kind.kind === 'document') {
      options.documents.addTopic(place, topic, new URL(kind.path, origin), kind.type, topicDone);
      return;
    }

    const pageUrl = new URL(kind.path, origin);
    const file = await ctx.session.getTopicHtml(orgUnitId, topic.TopicId);
    if (!file.ok) {
      ctx.notScanned({ ...place, title: topic.Title, reason: file.reason, url: pageUrl.href });
      topicDone();
      return;
    }
    await ctx.check({ place, url: pageUrl.href, html: { content: file.html, baseUrl: pageUrl, whole: true } }, topicDone);
  });
}
