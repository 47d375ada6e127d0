// Runtime message overrides (config.json `i18n.batchUrl` / `i18n.collectionUrl`): a deployment can
// reword any message without a rebuild. One resource per locale, keyed `ctpo/<catalogue tag>`
// (ctpo/en, ctpo/fr-CA, ctpo/fr-ON...), whose body is a JSON object of message id -> text.
//
// - Batch (batchUrl, preferred when set): resources asked for within BATCH_WAIT_MS of each other go
//   out as one POST of a JSON list, one entry per resource: { "key", "version"? }. The answer is a
//   JSON list (or { "resources": [...] }) in the same order, each entry { status, headers, body }
//   with body the resource's JSON (as text or as an object).
// - Collection (collectionUrl alone): GET <collectionUrl>/<key>.
// Every answer's ETag header is kept with it as its version, and the resource is cached in Cache
// Storage under <collectionUrl or batchUrl>/<key>. The cached copy is shown at once; the server is
// then asked whether it changed: the batch entry carries the cached version, the GET sends it as
// If-None-Match, and a 304 (the entry's status, or the GET's) keeps the cached copy. 404 means no
// overrides for that locale. On failure the error is logged, and the cached copy (or, without
// one, the built-in messages) stays.
import * as z from 'zod/mini';
import { kept } from '@contract';
import { messageTable, type Messages } from '@/lib/i18n/catalogues';
import type { LocaleTag } from '@/lib/i18n/locale';

export const OVERRIDE_CACHE_NAME = 'ctpo-message-overrides';
export const BATCH_WAIT_MS = 150;
export const BATCH_FAILED_MESSAGE = 'Failed to fetch batch overrides.';
export const SINGLE_FAILED_MESSAGE = 'Failed to fetch overrides.';

export interface OverrideAddresses {
  batchUrl?: string;
  collectionUrl?: string;
}

type FreshAnswer =
  | { kind: 'changed'; messages: Messages; version: string | null }
  | { kind: 'unchanged' }
  | { kind: 'none' }
  | { kind: 'failed' };

interface CachedOverrides {
  messages: Messages;
  version: string | null;
}

interface QueuedResource {
  key: string;
  version: string | null;
  settle: (answer: FreshAnswer) => void;
}

export function overrideResourceKey(locale: LocaleTag): string {
  return `ctpo/${locale}`;
}

function joinUrl(base: string, key: string): string {
  return `${base.replace(/\/+$/, '')}/${key}`;
}

/** One entry of a batch answer: an HTTP answer of its own (headers kept only when they are an object). */
const batchEntry = z.object({ status: z.number(), headers: kept(z.record(z.string(), z.unknown())), body: z.optional(z.unknown()) });

/** A batch answer: a list of entries, or { resources: [...] }. */
const batchAnswer = z.union([z.array(z.unknown()), z.pipe(z.object({ resources: z.array(z.unknown()) }), z.transform((answer) => answer.resources))]);

/** The overrides of one resource, or undefined when its body is not a JSON object. */
function overridesOf(body: unknown): Messages | undefined {
  const table = messageTable.safeParse(body);
  return table.success ? table.data : undefined;
}

function failed(key: string, why: unknown): FreshAnswer {
  console.error(SINGLE_FAILED_MESSAGE, key, why instanceof Error ? why.message : why);
  return { kind: 'failed' };
}

/** One batch entry, read like the HTTP answer it stands for. */
function readBatchEntry(value: unknown, resource: QueuedResource): FreshAnswer {
  const read = batchEntry.safeParse(value);
  if (!read.success) return failed(resource.key, 'the batch entry has no status');
  const entry = read.data;
  let headers: Headers;
  try {
    headers = new Headers(entry.headers as Record<string, string> | undefined);
  } catch {
    return failed(resource.key, 'the batch entry has invalid headers');
  }
  if (entry.status === 304 && resource.version) return { kind: 'unchanged' };
  if (entry.status === 404) return { kind: 'none' };
  if (entry.status < 200 || entry.status > 299) return failed(resource.key, `status ${entry.status}`);
  let body: unknown = entry.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      return failed(resource.key, 'the body is not JSON');
    }
  }
  const messages = overridesOf(body);
  if (!messages) return failed(resource.key, 'the body is not a JSON object');
  return { kind: 'changed', messages, version: headers.get('ETag') };
}

/** Loads the overrides of one page's lifetime: each resource is asked for at most once. */
export class MessageOverrideLoader {
  private readonly addresses: OverrideAddresses;
  private readonly batchWaitMs: number;
  private readonly answers = new Map<string, Promise<FreshAnswer>>();
  private queue: QueuedResource[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private cache: Promise<Cache | undefined> | undefined;

  constructor(addresses: OverrideAddresses, batchWaitMs = BATCH_WAIT_MS) {
    this.addresses = addresses;
    this.batchWaitMs = batchWaitMs;
  }

  /** Calls `onMessages` with the cached overrides at once, then again if the server has others. */
  async load(locale: LocaleTag, onMessages: (messages: Messages) => void): Promise<void> {
    const key = overrideResourceKey(locale);
    const cached = await this.readCached(key);
    if (cached) onMessages(cached.messages);
    let answer = this.answers.get(key);
    if (!answer) {
      answer = this.fetchFresh(key, cached?.version ?? null);
      this.answers.set(key, answer);
    }
    const fresh = await answer;
    if (fresh.kind === 'changed') onMessages(fresh.messages);
    else if (fresh.kind === 'none' && cached) onMessages({});
  }

  private resourceUrl(key: string): string {
    return joinUrl(this.addresses.collectionUrl ?? this.addresses.batchUrl ?? '', key);
  }

  private async fetchFresh(key: string, version: string | null): Promise<FreshAnswer> {
    const answer = this.addresses.batchUrl ? await this.fetchInBatch(key, version) : await this.fetchFromCollection(key, version);
    if (answer.kind === 'changed') await this.writeCached(key, answer);
    if (answer.kind === 'none') await this.deleteCached(key);
    return answer;
  }

  private fetchInBatch(key: string, version: string | null): Promise<FreshAnswer> {
    return new Promise((settle) => {
      this.queue.push({ key, version, settle });
      this.timer ??= setTimeout(() => void this.sendBatch(), this.batchWaitMs);
    });
  }

  private async sendBatch(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    this.timer = undefined;
    let entries: unknown[];
    try {
      const response = await fetch(this.addresses.batchUrl ?? '', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(batch.map(({ key, version }) => (version ? { key, version } : { key }))),
        cache: 'no-store',
        credentials: 'same-origin',
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const body: unknown = await response.json();
      const list = batchAnswer.safeParse(body);
      if (!list.success || list.data.length !== batch.length) throw new Error('the answer is not one entry per resource');
      entries = list.data;
    } catch (error) {
      console.error(BATCH_FAILED_MESSAGE, error instanceof Error ? error.message : error);
      for (const resource of batch) resource.settle({ kind: 'failed' });
      return;
    }
    batch.forEach((resource, index) => resource.settle(readBatchEntry(entries[index], resource)));
  }

  private async fetchFromCollection(key: string, version: string | null): Promise<FreshAnswer> {
    try {
      const response = await fetch(joinUrl(this.addresses.collectionUrl ?? '', key), {
        headers: version ? { 'If-None-Match': version } : {},
        // Our own cache decides; the browser's must not answer for the server.
        cache: 'no-store',
        credentials: 'same-origin',
      });
      if (response.status === 304 && version) return { kind: 'unchanged' };
      if (response.status === 404) return { kind: 'none' };
      if (!response.ok) return failed(key, `status ${response.status}`);
      const messages = overridesOf(await response.json());
      if (!messages) return failed(key, 'the body is not a JSON object');
      return { kind: 'changed', messages, version: response.headers.get('ETag') };
    } catch (error) {
      return failed(key, error);
    }
  }

  // Cache Storage is missing over plain http off localhost and refused in some private windows;
  // overrides then work without it.
  private openCache(): Promise<Cache | undefined> {
    this.cache ??= (async () => {
      try {
        return typeof caches === 'undefined' ? undefined : await caches.open(OVERRIDE_CACHE_NAME);
      } catch {
        return undefined;
      }
    })();
    return this.cache;
  }

  private async readCached(key: string): Promise<CachedOverrides | undefined> {
    const cache = await this.openCache();
    if (!cache) return undefined;
    try {
      const response = await cache.match(this.resourceUrl(key));
      if (!response) return undefined;
      const messages = overridesOf(await response.json());
      return messages ? { messages, version: response.headers.get('ETag') } : undefined;
    } catch {
      return undefined;
    }
  }

  private async writeCached(key: string, { messages, version }: { messages: Messages; version: string | null }): Promise<void> {
    const cache = await this.openCache();
    if (!cache) return;
    const headers = new Headers({ 'Content-Type': 'application/json' });
    if (version) headers.set('ETag', version);
    try {
      await cache.put(this.resourceUrl(key), new Response(JSON.stringify(messages), { headers }));
    } catch (error) {
      console.warn('CTPO: message overrides could not be cached', error);
    }
  }

  private async deleteCached(key: string): Promise<void> {
    const cache = await this.openCache();
    try {
      await cache?.delete(this.resourceUrl(key));
    } catch {
      // Nothing cached, or the cache is gone: either way no stale copy is left to show.
    }
  }
}
