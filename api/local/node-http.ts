// Translates between Node's http(s) server objects and the framework-free ApiRequest/ApiResponse.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import type { ApiRequest, ApiResponse } from '../http/types.ts';

/**
 * Reads a request, keeping at most `maxBodyBytes + 1` bytes of its body: enough for the route to
 * see it is over the limit, never an unbounded buffer.
 */
export async function readApiRequest(req: IncomingMessage, res: ServerResponse, maxBodyBytes: number): Promise<ApiRequest> {
  const url = new URL(req.url ?? '/', 'http://placeholder');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const abort = new AbortController();
  // The response closing before it was sent means the client went away: stop the work it asked for.
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });

  let body: string | undefined;
  if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
    body = await readBodyUpTo(req, maxBodyBytes + 1);
  }
  return { method, path: url.pathname, headers, query: url.searchParams, body, signal: abort.signal };
}

function readBodyUpTo(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (): void => {
      req.off('data', onData);
      req.off('end', finish);
      req.off('error', onError);
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error): void => {
      req.off('data', onData);
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      const part = chunk.length > limit - size ? chunk.subarray(0, limit - size) : chunk;
      chunks.push(part);
      size += part.length;
      if (size >= limit) {
        // Past the limit: stop reading (the answer is 413 and the connection closes behind it),
        // without destroying the socket the answer has to go out on.
        req.pause();
        finish();
      }
    };
    req.on('data', onData);
    req.on('end', finish);
    req.on('error', onError);
  });
}

/** An ApiResponse whose body may also be bytes (static files). */
export interface LocalResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

export function writeApiResponse(res: ServerResponse, response: ApiResponse | LocalResponse, options: { head?: boolean; close?: boolean } = {}): void {
  const headers: Record<string, string> = { ...response.headers };
  if (options.close) headers.connection = 'close';
  if (!('content-length' in headers)) headers['content-length'] = String(Buffer.byteLength(response.body));
  const body = options.head ? '' : response.body;
  res.writeHead(response.status, headers);
  res.end(body);
}

/** Starts listening and resolves with the port (the one picked when `port` is 0). */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
