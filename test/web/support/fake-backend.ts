// A fake network at the fetch boundary: routes requests by method and path to small handlers,
// records every request (headers, credentials, parsed body) so tests can assert what was sent.
import { vi } from 'vitest';

export const TEST_CONFIG = {
  region: 'ca-central-1',
  userPoolId: 'ca-central-1_Local',
  userPoolClientId: 'ctpolocalwebclient',
  oauthDomain: 'localhost:8443',
  userPoolEndpoint: 'https://localhost:8443/',
  siteUrl: 'https://ctpo.example.ca/',
  apiUrl: 'https://api.example.ca',
  pollIntervalMs: 10000,
};

export interface RecordedRequest {
  url: URL;
  method: string;
  headers: Headers;
  credentials: RequestCredentials | undefined;
  cache: RequestCache | undefined;
  /** The body parsed as JSON when it is JSON, else the raw text. */
  body: unknown;
}

export type Handler = (request: RecordedRequest) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A response that arrives when the test says so. */
export function deferred() {
  let resolve!: (response: Response) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<Response>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject, handler: (() => promise) as Handler };
}

interface Route {
  method: string;
  /** Matches the path exactly, or as a prefix when it ends with '*'. */
  path: string;
  origin?: string;
  handler: Handler;
}

export class FakeBackend {
  readonly requests: RecordedRequest[] = [];
  private readonly routes: Route[] = [];

  constructor(config: unknown = TEST_CONFIG) {
    this.on('GET', '/config.json', () => json(config));
    // The signed-in page lists the user's recent runs; by default they have none.
    this.on('GET', '/api/jobs', () => json({ jobs: [] }));
  }

  /** Later routes win, so a test can override a default. */
  on(method: string, path: string, handler: Handler, origin?: string): this {
    this.routes.unshift({ method, path, handler, ...(origin ? { origin } : {}) });
    return this;
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((request) =>
      path.endsWith('*') ? request.url.pathname.startsWith(path.slice(0, -1)) : request.url.pathname === path,
    );
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
    const method = (init.method ?? 'GET').toUpperCase();
    const text = typeof init.body === 'string' ? init.body : undefined;
    let body: unknown = text;
    if (text !== undefined) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const request: RecordedRequest = {
      url,
      method,
      headers: new Headers(init.headers),
      credentials: init.credentials,
      cache: init.cache,
      body,
    };
    this.requests.push(request);
    init.signal?.throwIfAborted();
    const route = this.routes.find(
      (candidate) =>
        candidate.method === method &&
        (!candidate.origin || candidate.origin === url.origin) &&
        (candidate.path.endsWith('*') ? url.pathname.startsWith(candidate.path.slice(0, -1)) : url.pathname === candidate.path),
    );
    if (!route) return json({ message: `No fake route for ${method} ${url.pathname}`, code: 'not_found' }, 404);
    return route.handler(request);
  };

  install(): this {
    vi.stubGlobal('fetch', this.fetch);
    return this;
  }
}
