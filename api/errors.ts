// Errors a person can act on: every failure the API or engine reports carries a stable code and a
// plain message. The HTTP layer turns the code into a status; stack traces stay in the logs.

const statusByCode = {
  invalid_input: 400,
  address_not_allowed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_runs: 429,
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

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
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
