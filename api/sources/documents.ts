// Documents of the course: File topics that are PDF, Word or PowerPoint files, and the course files
// of those kinds that a page links to on the Brightspace site. Each is downloaded once per run with
// the session (within a size limit), read in the document worker, and handed on as a document; one
// that cannot be read is handed on as unreadable, with why. A linked document is reported on the first
// page (in the course's order) that links to it, with its own address.
//
// Documents are read after the pages (readAll): reading a PDF is CPU work, and while the pages are
// read, their accessibility checks and the first link answers need both cores.
import type { SelectedModule } from '../brightspace/toc.ts';
import type { DocumentFailure, DocumentType } from '../extract/document-facts.ts';
import { documentTypeOf } from '../extract/document-facts.ts';
import type { DocumentResult, DocumentRunner } from '../extract/document-runner.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import type { LinkOccurrence } from '../extract/html.ts';
import { msg, type Message } from '../i18n/messages.ts';
import pLimit from 'p-limit';
import type { CourseItem, SourceContext } from './course-items.ts';

const TYPE_WORD: Record<DocumentType, 'pdf' | 'word' | 'powerpoint'> = { pdf: 'pdf', docx: 'word', pptx: 'powerpoint' };

/** Documents downloaded at once (one is read at a time; the next downloads meanwhile). */
const DOWNLOAD_CONCURRENCY = 4;

export function failureReason(type: DocumentType, failure: DocumentFailure, timeoutMs: number): Message {
  const word = TYPE_WORD[type];
  switch (failure.kind) {
    case 'password':
      return msg('reason.document.password', { type: word });
    case 'malformed':
      return msg('reason.document.malformed', { type: word });
    case 'too-large':
      return msg('reason.document.too-large', { type: word });
    case 'timeout':
      return msg('reason.document.timeout', { type: word, seconds: Math.round(timeoutMs / 1000) });
    case 'crashed':
      return msg('reason.document.crashed', { type: word });
  }
}

function fileNameOf(url: URL): string {
  const last = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

interface DocumentTopic {
  place: ItemPlace;
  topic: { TopicId: number; Title: string };
  url: URL;
  type: DocumentType;
  done: () => void;
}

/** Reads a document's bytes (the document worker, or the engine's verdicts in front of it, which key them by address). */
export interface DocumentReader {
  readonly limits: DocumentRunner['limits'];
  read(type: DocumentType, bytes: Uint8Array, url: string): Promise<DocumentResult>;
}

interface LinkedDocument {
  url: URL;
  type: DocumentType;
  place: ItemPlace;
  rank: number;
}

export class CourseDocuments {
  readonly #runner: DocumentReader;
  readonly #origin: URL;
  readonly #topicRank = new Map<number, number>();
  /** Addresses read (or being read) this run: each document once. */
  readonly #read = new Set<string>();
  readonly #linked = new Map<string, LinkedDocument>();
  readonly #topics: DocumentTopic[] = [];

  constructor(runner: DocumentReader, origin: URL, selected: SelectedModule[]) {
    this.#runner = runner;
    this.#origin = origin;
    for (const entry of selected) for (const topic of entry.topics) this.#topicRank.set(topic.TopicId, this.#topicRank.size);
  }

  /** Notes a File topic that is a document, to be read by readAll; `done` is called once its checks have run. */
  addTopic(place: ItemPlace, topic: { TopicId: number; Title: string }, url: URL, type: DocumentType, done: () => void): void {
    this.#read.add(url.href);
    this.#topics.push({ place, topic, url, type, done });
  }

  /** Reads the documents of the File topics, then those that items link to and are not topics of their own. */
  async readAll(ctx: SourceContext): Promise<void> {
    const topics = this.#topics.splice(0);
    await pLimit(DOWNLOAD_CONCURRENCY).map(topics, ({ place, topic, url, type, done }) => {
      ctx.signal?.throwIfAborted();
      return this.#readTopic(ctx, place, topic, url, type, done);
    });
    await this.#readLinked(ctx);
  }

  async #readTopic(ctx: SourceContext, place: ItemPlace, topic: { TopicId: number; Title: string }, url: URL, type: DocumentType, done: () => void): Promise<void> {
    const file = await ctx.session.getTopicFile(ctx.orgUnitId, topic.TopicId, this.#runner.limits.maxBytes);
    if (!file.ok) return ctx.emit({ place, url: url.href, unreadable: { reason: file.reason, title: topic.Title } }, done);
    const result = await this.#runner.read(type, file.bytes, url.href);
    if (!result.ok) return ctx.emit({ place, url: url.href, unreadable: { reason: failureReason(type, result.failure, this.#runner.limits.timeoutMs), title: topic.Title } }, done);
    await ctx.emit({ place, url: url.href, isTopic: true, document: { facts: result.facts, linked: false } }, done);
  }

  /**
   * Notes a link an item makes: a PDF, Word or PowerPoint file on the Brightspace site is read later
   * (readLinked), once, for the first item in the course's order that links to it.
   */
  noteLink(link: LinkOccurrence, item: CourseItem): void {
    if (link.url === null || item.document !== undefined) return;
    const url = new URL(link.url);
    if (url.origin !== this.#origin.origin) return;
    const type = documentTypeOf(url.pathname);
    if (type === null) return;
    const rank = this.#topicRank.get(item.place.topicId ?? -1) ?? Number.MAX_SAFE_INTEGER;
    const known = this.#linked.get(url.href);
    if (known === undefined || rank < known.rank) this.#linked.set(url.href, { url, type, place: item.place, rank });
  }

  async #readLinked(ctx: SourceContext): Promise<void> {
    const pending = [...this.#linked.values()].filter((linked) => !this.#read.has(linked.url.href)).sort((a, b) => a.rank - b.rank);
    await pLimit(DOWNLOAD_CONCURRENCY).map(pending, async ({ url, type, place }) => {
      ctx.signal?.throwIfAborted();
      this.#read.add(url.href);
      const name = fileNameOf(url);
      const notScanned = (problem: Message) => ctx.emit({ place, url: url.href, unreadable: { reason: msg('reason.document.linked', { name, problem }), title: name } });
      const file = await ctx.session.getCourseFile(url, this.#runner.limits.maxBytes);
      // A file that is not there is a broken link, which the link checks report.
      if (!file.ok && (file.status === 404 || file.status === 410)) return;
      if (!file.ok) return notScanned(file.reason);
      const result = await this.#runner.read(type, file.bytes, url.href);
      if (!result.ok) return notScanned(failureReason(type, result.failure, this.#runner.limits.timeoutMs));
      await ctx.emit({ place, url: url.href, document: { facts: result.facts, linked: true } });
    });
  }
}
