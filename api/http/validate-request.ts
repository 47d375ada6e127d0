// Request validation for the QA API: the body is read as JSON within the size limit, then each
// field is checked for its exact type and bounds. Any input either becomes a clean, typed request or
// an AppError with a 4xx code that names every field at fault; nothing else is ever thrown.
import { AppError } from '../errors.ts';
import { joinMessages, msg, type Message } from '../i18n/messages.ts';
import { assertAllowedUrl } from '../net/address-guard.ts';
import { hiddenCharacterIn } from '../engine/run-input.ts';
import { LANGUAGES, languageOf, type Language } from '../i18n/languages.ts';
import { MAX_BODY_BYTES } from './contract.ts';
import { COURSE_SCOPES, type CourseScope } from '../brightspace/course-scopes.ts';
import type { ApiRequest } from './types.ts';

export const LIMITS = {
  userName: 256,
  password: 1024,
  clientUrl: 2048,
  clientName: 100,
  modules: 2000,
} as const;

export interface TocInput {
  /** The Brightspace site's origin, e.g. https://school.brightspace.com */
  siteUrl: string;
  orgUnitId: number;
  username: string;
  password: string;
  /** LANGUAGE when it was sent. */
  language?: Language;
}

export interface RunTestsInput extends TocInput {
  client: string;
  /** Distinct module ids, in the order sent. */
  modules: number[];
  /** Distinct course-wide scopes, in the order sent; undefined when SCOPES was not sent. */
  scopes?: CourseScope[];
}

export interface ValidationPolicy {
  allowPrivateTargets: boolean;
}

/** Reads the JSON body: 413 over the limit, 415 when not JSON, 400 when it does not parse. */
export function readJsonBody(request: ApiRequest): unknown {
  const body = request.body ?? '';
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) {
    throw new AppError('payload_too_large', msg('error.request.too-large', { kibibytes: MAX_BODY_BYTES / 1024 }));
  }
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new AppError('unsupported_media_type', msg('error.request.not-json-type'));
  }
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new AppError('invalid_input', msg('error.request.bad-json'));
  }
}

// C0 and C1 control characters: never part of a name, a label or a user name.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

type FieldReader<T> = (value: unknown, problems: Message[]) => T | undefined;

function text(field: string, max: number, options: { trim: boolean; what: Message }): FieldReader<string> {
  return (value, problems) => {
    const { what } = options;
    if (value === undefined || value === null) {
      problems.push(msg('error.field.required', { field, what }));
      return undefined;
    }
    if (typeof value !== 'string') {
      problems.push(msg('error.field.not-text', { field, what }));
      return undefined;
    }
    const cleaned = options.trim ? value.trim() : value;
    if (cleaned.trim() === '') {
      problems.push(msg('error.field.empty', { field, what }));
      return undefined;
    }
    if (cleaned.length > max) {
      problems.push(msg('error.field.too-long', { field, max }));
      return undefined;
    }
    if (options.trim && CONTROL.test(cleaned)) {
      problems.push(msg('error.field.control-characters', { field }));
      return undefined;
    }
    const hidden = options.trim ? hiddenCharacterIn(cleaned) : undefined;
    if (hidden !== undefined) {
      problems.push(msg('error.field.hidden-characters', { field, codePoint: hidden }));
      return undefined;
    }
    return cleaned;
  };
}

const readUserName = text('USER_NAME', LIMITS.userName, { trim: true, what: msg('error.field.what.user-name') });
// A password is taken exactly as typed: spaces at either end can be part of it.
const readPassword = text('PASSWORD', LIMITS.password, { trim: false, what: msg('error.field.what.password') });
const readClientName = text('CLIENT_NAME', LIMITS.clientName, { trim: true, what: msg('error.field.what.client') });

function positiveId(value: unknown): number | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  }
  if (typeof value === 'string') {
    const digits = value.trim();
    if (!/^\d{1,15}$/.test(digits)) return undefined;
    const id = Number(digits);
    return id > 0 ? id : undefined;
  }
  return undefined;
}

const readOrgUnitId: FieldReader<number> = (value, problems) => {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    problems.push(msg('error.field.org-unit-required'));
    return undefined;
  }
  const id = positiveId(value);
  if (id === undefined) problems.push(msg('error.field.org-unit-invalid'));
  return id;
};

function readSiteUrl(value: unknown, problems: Message[], addressErrors: AppError[], policy: ValidationPolicy): string | undefined {
  const field = 'CLIENT_URL';
  const what = msg('error.field.what.site');
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    problems.push(msg('error.field.required', { field, what }));
    return undefined;
  }
  if (typeof value !== 'string') {
    problems.push(msg('error.field.not-text', { field, what }));
    return undefined;
  }
  if (value.length > LIMITS.clientUrl) {
    problems.push(msg('error.field.too-long', { field, max: LIMITS.clientUrl }));
    return undefined;
  }
  try {
    // The Brightspace API lives at the site root, so only the origin is kept. Plain http only goes
    // with the local switch (the local demo course), as the engine's own site policy has it.
    return assertAllowedUrl(value, { allowPrivateTargets: policy.allowPrivateTargets, allowHttp: policy.allowPrivateTargets }).origin;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    problems.push(msg('error.field.site-refused', { problem: error.text }));
    if (error.code === 'address_not_allowed') addressErrors.push(error);
    return undefined;
  }
}

const readModules: FieldReader<number[]> = (value, problems) => {
  if (value === undefined || value === null) {
    problems.push(msg('error.field.modules-required'));
    return undefined;
  }
  if (!Array.isArray(value)) {
    problems.push(msg('error.field.modules-not-list'));
    return undefined;
  }
  if (value.length === 0) {
    problems.push(msg('error.field.modules-empty'));
    return undefined;
  }
  if (value.length > LIMITS.modules) {
    problems.push(msg('error.field.modules-too-many', { max: LIMITS.modules }));
    return undefined;
  }
  if (!value.every((id) => typeof id === 'number' && Number.isSafeInteger(id) && id > 0)) {
    problems.push(msg('error.field.modules-not-ids'));
    return undefined;
  }
  return [...new Set(value as number[])];
};

const readLanguage: FieldReader<Language | null> = (value, problems) => {
  if (value === undefined || value === null) return null;
  const language = languageOf(value);
  if (language === undefined) {
    problems.push(msg('error.field.language', { languages: LANGUAGES.join(', ') }));
    return undefined;
  }
  return language;
};

const readScopes: FieldReader<CourseScope[] | null> = (value, problems) => {
  if (value === undefined || value === null) return null;
  const known = COURSE_SCOPES as readonly unknown[];
  if (!Array.isArray(value) || value.length > COURSE_SCOPES.length * 2 || !value.every((scope) => known.includes(scope))) {
    problems.push(msg('error.field.scopes', { scopes: COURSE_SCOPES.join(', ') }));
    return undefined;
  }
  return [...new Set(value as CourseScope[])];
};

/** LANGUAGE of a body that may not be valid at all: for the language of the error answer itself. */
export function languageOfBody(body: string | undefined): Language | undefined {
  if (body === undefined || body.length > MAX_BODY_BYTES) return undefined;
  try {
    const parsed = JSON.parse(body) as { LANGUAGE?: unknown } | null;
    return typeof parsed === 'object' && parsed !== null ? languageOf(parsed.LANGUAGE) : undefined;
  } catch {
    return undefined;
  }
}

function asObject(body: unknown, fields: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('invalid_input', msg('error.request.not-object', { fields }));
  }
  return body as Record<string, unknown>;
}

function fail(problems: Message[], addressErrors: AppError[]): never {
  // A refused address alone keeps its own code, so callers (and logs) can tell it from a typo.
  if (problems.length === 1 && addressErrors.length === 1) throw addressErrors[0]!;
  throw new AppError('invalid_input', joinMessages(problems));
}

export function parseTocRequest(body: unknown, policy: ValidationPolicy): TocInput {
  const fields = asObject(body, 'ORG_UNIT_ID, CLIENT_URL, USER_NAME and PASSWORD');
  const problems: Message[] = [];
  const addressErrors: AppError[] = [];
  const orgUnitId = readOrgUnitId(fields.ORG_UNIT_ID, problems);
  const siteUrl = readSiteUrl(fields.CLIENT_URL, problems, addressErrors, policy);
  const username = readUserName(fields.USER_NAME, problems);
  const password = readPassword(fields.PASSWORD, problems);
  const language = readLanguage(fields.LANGUAGE, problems);
  if (orgUnitId === undefined || siteUrl === undefined || username === undefined || password === undefined || language === undefined) {
    fail(problems, addressErrors);
  }
  return { siteUrl, orgUnitId, username, password, ...(language === null ? {} : { language }) };
}

export function parseRunTestsRequest(body: unknown, policy: ValidationPolicy): RunTestsInput {
  const fields = asObject(body, 'USER_NAME, PASSWORD, CLIENT_URL, ORG_UNIT_ID, CLIENT_NAME and MODULES');
  const problems: Message[] = [];
  const addressErrors: AppError[] = [];
  const username = readUserName(fields.USER_NAME, problems);
  const password = readPassword(fields.PASSWORD, problems);
  const siteUrl = readSiteUrl(fields.CLIENT_URL, problems, addressErrors, policy);
  const orgUnitId = readOrgUnitId(fields.ORG_UNIT_ID, problems);
  const client = readClientName(fields.CLIENT_NAME, problems);
  const modules = readModules(fields.MODULES, problems);
  const scopes = readScopes(fields.SCOPES, problems);
  const language = readLanguage(fields.LANGUAGE, problems);
  if (
    username === undefined ||
    password === undefined ||
    siteUrl === undefined ||
    orgUnitId === undefined ||
    client === undefined ||
    modules === undefined ||
    scopes === undefined ||
    language === undefined
  ) {
    fail(problems, addressErrors);
  }
  return {
    siteUrl,
    orgUnitId,
    username,
    password,
    client,
    modules,
    ...(scopes === null ? {} : { scopes }),
    ...(language === null ? {} : { language }),
  };
}

/** The job id of GET /api/job-status/{jobArn}, from the encoded path segment. */
export function parseJobId(encoded: string): string {
  let id: string;
  try {
    id = decodeURIComponent(encoded);
  } catch {
    throw new AppError('invalid_input', msg('error.request.job-id-invalid'));
  }
  if (id.trim() === '') throw new AppError('invalid_input', msg('error.request.job-id-missing'));
  if (id.length > 256 || CONTROL.test(id)) throw new AppError('invalid_input', msg('error.request.job-id-invalid'));
  return id;
}
