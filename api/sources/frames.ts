// Frames a page embeds. A frame that shows a course file of this site (an HTML file in an iframe)
// is read with the session, after the pages, and handed on as a whole page in its page's place,
// with the frame named: what is found in it is placed in the frame. Any other frame (a video, an
// H5P activity, an LTI tool, another site's page) is handed on as not checked here, with its
// provider, so the report lists it in place with what a person should check by hand. The browser
// renders every frame empty: what a frame shows is never loaded there.
import pLimit from 'p-limit';
import type { ItemPlace } from '../brightspace/places.ts';
import { embedProviderOf } from '../extract/embeds.ts';
import type { LinkOccurrence } from '../extract/html.ts';
import { msg } from '../i18n/messages.ts';
import type { CourseItem, SourceContext } from './course-items.ts';

/** A framed page beyond this size is not read. */
const MAX_FRAME_BYTES = 2 * 1024 * 1024;
const FRAME_ELEMENTS = /^(iframe|frame) src$/;
const HTML_FILE = /\.html?$/i;

interface NotedFrame {
  url: URL;
  place: ItemPlace;
  /** The frame's title attribute, when it has one. */
  title: string | undefined;
}

export class CourseFrames {
  readonly #origin: URL;
  /** Frames by item and address: each frame of an item once. */
  readonly #noted = new Map<string, NotedFrame>();
  readonly #done = new Set<string>();

  constructor(origin: URL) {
    this.#origin = origin;
  }

  /** Notes a frame an item's page embeds, to be handed on by readAll. */
  noteLink(link: LinkOccurrence, item: CourseItem): void {
    if (link.url === null || !FRAME_ELEMENTS.test(link.element) || item.html === undefined) return;
    const url = new URL(link.url);
    // Another course file in a frame (a PDF, an image) is the documents' and the links' to check.
    if (url.origin === this.#origin.origin && url.pathname.startsWith('/content/') && !HTML_FILE.test(url.pathname)) return;
    // A frame inside a frame is placed in the outer frame's page.
    const key = `${item.place.itemType}:${item.place.itemId}:${item.place.topicId}:${item.place.question ?? ''}:${url.href}`;
    if (this.#noted.has(key) || this.#done.has(key)) return;
    this.#noted.set(key, { url, place: { ...item.place, frame: url.href }, title: link.text });
  }

  /** Hands on every frame noted, and those the framed pages embed in turn. */
  async readAll(ctx: SourceContext): Promise<void> {
    for (;;) {
      const frames = [...this.#noted.entries()];
      if (frames.length === 0) return;
      this.#noted.clear();
      for (const [key] of frames) this.#done.add(key);
      await pLimit(4).map(frames, ([, frame]) => {
        ctx.signal?.throwIfAborted();
        return this.#handOn(ctx, frame);
      });
    }
  }

  async #handOn(ctx: SourceContext, { url, place, title }: NotedFrame): Promise<void> {
    const name = title !== undefined && title.trim() !== '' ? title : url.href;
    if (this.#isCourseFile(url)) {
      const html = await ctx.session.readSiteText(url, MAX_FRAME_BYTES);
      // A file that is not there is a broken link, which the link checks report.
      if (html === null) return ctx.emit({ place, url: url.href, unreadable: { reason: msg('reason.frame.unreadable'), title: name } });
      return ctx.emit({ place, url: url.href, html: { content: html, baseUrl: url, whole: true }, part: `frame:${url.href}` });
    }
    await ctx.emit({ place, url: url.href, unreadable: { reason: msg('reason.embed.not-checked', { provider: embedProviderOf(url) }), title: name } });
  }

  /** An HTML file of this course's site, read with the session as a topic's file is. */
  #isCourseFile(url: URL): boolean {
    return url.origin === this.#origin.origin && url.pathname.startsWith('/content/') && HTML_FILE.test(url.pathname);
  }
}
