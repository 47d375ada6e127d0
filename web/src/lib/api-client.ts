// The one way the app talks to the QA API: base URL from the runtime config, the signed-in user's
// access token as a bearer header, the language shown as Accept-Language (so the server's messages
// come in it), cookies included, JSON both ways, and errors that carry the server's own message.
import { fetchAuthSession } from 'aws-amplify/auth';
import { errorAnswer } from '@contract';
import { getRuntimeConfig } from '@/lib/runtime-config';

/** `status` is 0 when the server could not be reached at all. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** The message from the server's `{ message, code }` error body, when it sent one. */
  readonly serverMessage: string | undefined;

  constructor(status: number, message: string, details: { code?: string; serverMessage?: string } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = details.code;
    this.serverMessage = details.serverMessage;
  }
}

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Which configured base the path is relative to; job status may live on its own host. */
  base?: 'api' | 'jobStatus';
  signal?: AbortSignal;
}

let requestLanguage: string | undefined;

/** The language the app shows (a BCP 47 tag); every request asks for answers in it from now on. */
export function setRequestLanguage(tag: string | undefined): void {
  requestLanguage = tag;
}

async function accessToken(): Promise<string> {
  const session = await fetchAuthSession();
  const token = session.tokens?.accessToken?.toString();
  if (!token) throw new ApiError(401, 'Not signed in', { code: 'unauthorized' });
  return token;
}

async function readErrorBody(response: Response): Promise<{ code?: string; serverMessage?: string }> {
  try {
    const body = errorAnswer.safeParse(await response.json());
    if (!body.success) return {};
    const { message, code } = body.data;
    return { ...(message === undefined ? {} : { serverMessage: message }), ...(code === undefined ? {} : { code }) };
  } catch {
    return {};
  }
}

export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const config = getRuntimeConfig();
  const base = options.base === 'jobStatus' ? config.jobStatusApiUrl : config.apiUrl;
  const token = await accessToken();
  const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${token}` };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (requestLanguage !== undefined) headers['Accept-Language'] = requestLanguage;

  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method: options.method ?? 'GET',
      headers,
      credentials: 'include',
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, `${path} could not be reached`, { code: 'network' });
  }

  if (!response.ok) {
    const details = await readErrorBody(response);
    throw new ApiError(response.status, `${path} answered ${response.status}${details.code ? ` (${details.code})` : ''}`, details);
  }
  try {
    return (await response.json()) as T;
  } catch {
    throw new ApiError(response.status, `${path} answered with a body that is not JSON`, { code: 'invalid_response' });
  }
}
