// "The web" for link checks: one loopback server whose paths behave the way real sites do (slow,
// redirecting, missing, rate limited, hanging). The demo course's outside links point at it, so a
// demo run never leaves this machine; the tests and benchmarks use it the same way.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  cookie: string | undefined;
  /** When the request arrived and when its answer was sent (Date.now()). */
  at: number;
  doneAt?: number;
}

export interface LinkHost {
  /** Origin with no trailing slash, e.g. http://127.0.0.1:41234 */
  origin: string;
  requests: RecordedRequest[];
  /** Requests per path (method ignored). */
  hits(path: string): number;
  close(): Promise<void>;
}

/**
 * Paths and what they do:
 * /ok/...           200                    /slow/<ms>/...     200 after <ms> ms
 * /missing/...      404                    /gone/...          410
 * /error/...        500 every time         /flaky/<n>/...     503 the first <n> times, then 200
 * /moved/<rest>     301 to /ok/<rest>      /found/<rest>      302 to /ok/<rest>
 * /limited/...      429 (Retry-After: 1) the first time, then 200
 * /always-limited/  429 (Retry-After: 1) every time
 * /hang/...         never answers          /no-head/...       405 to HEAD, 200 to GET
 * /forbidden/...    403                    /bot-wall/...      403 with cf-mitigated: challenge
 * /redirect?to=URL  302 to URL             /loop/...          302 to itself
 * /post-only/...    405 unless POST (a form's endpoint)
 * /delay/<ms>/<path>  answers as <path> does, <ms> later (network latency)
 * anything else     404
 */
export async function startLinkHost(options: { host?: string } = {}): Promise<LinkHost> {
  const requests: RecordedRequest[] = [];
  const counts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://link-host');
    const record: RecordedRequest = { method: req.method ?? 'GET', path: `${url.pathname}${url.search}`, cookie: req.headers.cookie, at: Date.now() };
    requests.push(record);
    res.on('finish', () => (record.doneAt = Date.now()));
    const seen = (counts.get(url.pathname) ?? 0) + 1;
    counts.set(url.pathname, seen);
    const delayed = /^\/delay\/(\d+)(\/.*)$/.exec(url.pathname);
    if (delayed) {
      const timer = setTimeout(() => answer(req, res, url, delayed[2]!, seen), Math.min(Number(delayed[1]), 60_000));
      res.on('close', () => clearTimeout(timer));
      return;
    }
    answer(req, res, url, url.pathname, seen);
  };

  const answer = (req: IncomingMessage, res: ServerResponse, url: URL, path: string, seen: number) => {
    const send = (status: number, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(req.method === 'HEAD' ? undefined : `<!doctype html><title>${status}</title><p>${status}</p>`);
    };
    const [, first = '', second = '', ...rest] = path.split('/');
    switch (first) {
      case 'ok':
        return send(200);
      case 'slow': {
        const delay = Math.min(Number(second) || 0, 60_000);
        const timer = setTimeout(() => send(200), delay);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      case 'missing':
        return send(404);
      case 'gone':
        return send(410);
      case 'error':
        return send(500);
      case 'flaky':
        return send(seen <= (Number(second) || 1) ? 503 : 200);
      case 'moved':
        return send(301, { location: `/ok/${[second, ...rest].join('/')}` });
      case 'found':
        return send(302, { location: `/ok/${[second, ...rest].join('/')}` });
      case 'limited':
        return seen === 1 ? send(429, { 'retry-after': '1' }) : send(200);
      case 'always-limited':
        return send(429, { 'retry-after': '1' });
      case 'hang':
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      case 'no-head':
        return req.method === 'HEAD' ? send(405) : send(200);
      case 'forbidden':
        return send(403);
      case 'bot-wall':
        return send(403, { 'cf-mitigated': 'challenge' });
      case 'redirect':
        return send(302, { location: url.searchParams.get('to') ?? '/' });
      case 'loop':
        return send(302, { location: path });
      case 'post-only':
        return req.method === 'POST' ? send(200) : send(405, { allow: 'POST' });
      default:
        return send(404);
    }
  };

  const server = createServer(handle);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const { address, port } = server.address() as AddressInfo;
  return {
    origin: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    requests,
    hits: (path) => counts.get(path) ?? 0,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
