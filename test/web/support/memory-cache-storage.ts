// jsdom has no Cache Storage; this is a small in-memory one with the calls the app makes (open,
// and a cache's match, put, delete, keys), keyed by URL as the browser's is.
import { vi } from 'vitest';

interface StoredResponse {
  body: string;
  status: number;
  headers: [string, string][];
}

function urlOf(request: RequestInfo | URL): string {
  const url = new URL(request instanceof Request ? request.url : String(request), window.location.href);
  url.hash = '';
  return url.href;
}

export class MemoryCache {
  readonly entries = new Map<string, StoredResponse>();

  async match(request: RequestInfo | URL): Promise<Response | undefined> {
    const stored = this.entries.get(urlOf(request));
    return stored && new Response(stored.body, { status: stored.status, headers: stored.headers });
  }

  async put(request: RequestInfo | URL, response: Response): Promise<void> {
    this.entries.set(urlOf(request), { body: await response.text(), status: response.status, headers: [...response.headers] });
  }

  async delete(request: RequestInfo | URL): Promise<boolean> {
    return this.entries.delete(urlOf(request));
  }

  async keys(): Promise<Request[]> {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
}

export class MemoryCacheStorage {
  readonly caches = new Map<string, MemoryCache>();

  async open(name: string): Promise<MemoryCache> {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new MemoryCache();
      this.caches.set(name, cache);
    }
    return cache;
  }

  async has(name: string): Promise<boolean> {
    return this.caches.has(name);
  }

  async delete(name: string): Promise<boolean> {
    return this.caches.delete(name);
  }

  async keys(): Promise<string[]> {
    return [...this.caches.keys()];
  }

  /** The stored body of `url` in cache `name`, parsed, with its ETag. */
  async stored(name: string, url: string): Promise<{ body: unknown; etag: string | null } | undefined> {
    const response = await (await this.open(name)).match(url);
    return response && { body: await response.json(), etag: response.headers.get('ETag') };
  }
}

/** Installs a fresh in-memory `caches` global; undo with vi.unstubAllGlobals(). */
export function installMemoryCaches(storage = new MemoryCacheStorage()): MemoryCacheStorage {
  vi.stubGlobal('caches', storage);
  return storage;
}
