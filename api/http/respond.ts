// How every QA API answer is shaped: JSON, never cached, CORS only for the configured app origins,
// and every failure as `{ message, code }` with the status of its code. Unexpected errors become a
// plain 500 whose details stay in the log.
import { AppError, isAppError } from '../errors.ts';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/languages.ts';
import { msg } from '../i18n/messages.ts';
import type { ErrorAnswer } from './contract.ts';
import { failureDetail, type Log } from '../log.ts';
import type { ApiRequest, ApiResponse } from './types.ts';

const INTERNAL_MESSAGE = msg('error.internal');

const baseHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export function corsHeaders(request: ApiRequest, allowedOrigins: readonly string[]): Record<string, string> {
  const origin = request.headers.origin;
  // Vary on Origin even when refused, so a shared cache never hands one origin's answer to another.
  if (origin === undefined || !allowedOrigins.includes(origin)) return { vary: 'Origin' };
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    vary: 'Origin',
  };
}

export function jsonResponse(request: ApiRequest, allowedOrigins: readonly string[], status: number, body: unknown, extra: Record<string, string> = {}): ApiResponse {
  return jsonTextResponse(request, allowedOrigins, status, JSON.stringify(body), extra);
}

/** An answer whose JSON is already written (a large one, prepared off the serving thread). */
export function jsonTextResponse(request: ApiRequest, allowedOrigins: readonly string[], status: number, json: string, extra: Record<string, string> = {}): ApiResponse {
  return {
    status,
    headers: { ...baseHeaders, ...corsHeaders(request, allowedOrigins), ...extra },
    body: json,
  };
}

export function errorResponse(
  request: ApiRequest,
  allowedOrigins: readonly string[],
  error: unknown,
  context: { log?: Log; secrets?: readonly string[]; language?: Language } = {},
): ApiResponse {
  const known = isAppError(error) ? error : undefined;
  const appError = known ?? new AppError('internal', INTERNAL_MESSAGE);
  // A refusal the client caused, or the Brightspace site's own failure, is answered, not logged:
  // only CTPO's own faults are.
  if (known === undefined || appError.code === 'internal') {
    context.log?.(`${request.method} ${request.path.slice(0, 200)} failed: ${failureDetail(error, context.secrets ?? [])}`);
  }
  const body: ErrorAnswer = { message: appError.messageIn(context.language ?? DEFAULT_LANGUAGE), code: appError.code };
  const extra: Record<string, string> = {};
  if (appError.code === 'unauthorized') extra['www-authenticate'] = 'Bearer';
  if (appError.code === 'overloaded' || appError.code === 'too_many_runs') extra['retry-after'] = '60';
  return jsonResponse(request, allowedOrigins, appError.status, body, extra);
}
