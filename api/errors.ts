// Errors a person can act on: every failure the API or engine reports carries a stable code and a
// message for a person (api/i18n), shown in their language. The HTTP layer turns the code into a
// status; stack traces stay in the logs.
import { formatMessage, type Message } from './i18n/messages.ts';
import type { Language } from './i18n/languages.ts';

const statusByCode = {
  invalid_input: 400,
  address_not_allowed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  // The request is fine, but the job is past it (cancelling a run that has already ended).
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_runs: 429,
  too_many_requests: 429,
  // The Brightspace site failed or refused: the user's input reached it, it said no or broke.
  site_unreachable: 502,
  site_error: 502,
  login_failed: 502,
  sso_only: 502,
  two_factor_required: 502,
  course_not_found: 502,
  course_forbidden: 502,
  overloaded: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof statusByCode;

export class AppError extends Error {
  readonly code: ErrorCode;
  /** What to tell the person; `message` is its English text, for logs. */
  readonly text: Message;

  constructor(code: ErrorCode, text: Message, options?: { cause?: unknown }) {
    super(formatMessage(text), options);
    this.name = 'AppError';
    this.code = code;
    this.text = text;
  }

  /** The message in a person's language. */
  messageIn(language: Language): string {
    return formatMessage(this.text, language);
  }

  get status(): number {
    return statusByCode[this.code];
  }
}

export function httpStatusOf(code: ErrorCode): number {
  return statusByCode[code];
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
