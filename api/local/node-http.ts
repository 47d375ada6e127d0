// Translates between Node's http(s) server objects and the framework-free ApiRequest/ApiResponse.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import type { ApiRequest, ApiResponse } from '../http/types.ts';

/** A request without its body: method, path, headers, query, and a signal for the client going away. */
export function apiRequestHead(req: IncomingMessage, res: ServerResponse): ApiRequest {
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
  return { method, path: url.pathname, headers, query: url.searchParams, signal: abort.signal };
}

/** True when the request says a body follows (which must then be read, or the connection closed). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * Reads at most `maxBodyBytes + 1` bytes of the body: enough for the route to see it is over the
 * limit, never an unbounded buffer.
 */
export function readApiBody(req: IncomingMessage, maxBodyBytes: number): Promise<string> {
  return readBodyUpTo(req, maxBodyBytes + 1);
}

/** A request with its body read (see readApiBody) when its method carries one. */
export async function readApiRequest(req: IncomingMessage, res: ServerResponse, maxBodyBytes: number): Promise<ApiRequest> {
  const request = apiRequestHead(req, res);
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') {
    request.body = await readApiBody(req, maxBodyBytes);
  }
  return request;
}

/** An error that only means the client went away (hung up, reset, aborted a request). */
export function isClientGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error instanceof Error && error.message === 'aborted');
}

function readBodyUpTo(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (): void => {
      req.off('data', onData);
      req.off('end', finish);
      req.off('error', onError);
      req.off('close', onClose);
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error): void => {
      req.off('data', onData);
      reject(error);
    };
    // A client that hangs up part way may end the stream with no error at all.
    const onClose = (): void => {
      if (!req.complete) onError(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
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
    req.once('close', onClose);
    // Gone before anyone listened: no event will come any more.
    if (req.destroyed && !req.complete) onClose();
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
