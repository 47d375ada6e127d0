// Request validation for the QA API: the body is read as JSON within the size limit, then checked
// against the wire contract (contract.ts), whose field rules are the run's input rules. Any input
// either becomes a clean, typed request or an AppError with a 4xx code that names every field at
// fault, worded from our catalogue in the caller's language (zod's own texts never reach a person);
// nothing else is ever thrown.
import type * as z from 'zod/mini';
import { AppError } from '../errors.ts';
import { joinMessages, msg, type Message, type MessageId } from '../i18n/messages.ts';
import { assertAllowedUrl } from '../net/address-guard.ts';
import { brokenRuleOf, type BrokenRule, type RuleName } from '../engine/run-input-rules.ts';
import { LANGUAGES, languageOf, type Language } from '../i18n/languages.ts';
import { isRecord, type JsonObject } from '../json.ts';
import { COURSE_SCOPES, MAX_BODY_BYTES, jobIdParameter, runTestsRequest, tocRequest } from './contract.ts';
import type { CourseScope } from '../brightspace/course-scopes.ts';
import type { ApiRequest } from './types.ts';

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
  /** Distinct module ids, in the order sent; none when the run reads course-wide items only. */
  modules: number[];
  /** Distinct sub-modules of those to leave out, in the order sent; undefined when none. */
  excludeModules?: number[];
  /** Distinct course-wide scopes, in the order sent; undefined when SCOPES was not sent. */
  scopes?: CourseScope[];
  /** The modules' titles as the user saw them, for their history; undefined when none. */
  moduleTitles?: Record<string, string>;
  /** FULL: check every item now, ignoring the verdicts kept from earlier runs; undefined when not asked. */
  full?: true;
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

/**
 * The rule each field at fault broke, by field: the field's own issue before those of its entries
 * (a list too long says more than its first bad entry), the first of those.
 */
export function brokenRulesByField(issues: readonly z.core.$ZodIssue[]): Map<PropertyKey, BrokenRule> {
  const chosen = new Map<PropertyKey, z.core.$ZodIssue>();
  for (const issue of issues) {
    const field = issue.path[0];
    if (field === undefined) continue;
    const held = chosen.get(field);
    if (held === undefined || issue.path.length < held.path.length) chosen.set(field, issue);
  }
  return new Map([...chosen].map(([field, issue]) => [field, brokenRuleOf(issue)]));
}

/** Where an address is refused, the problem in the guard's words, and the guard's own error. */
export function guardedOrigin(url: string, policy: ValidationPolicy): { origin: string } | { refused: AppError } {
  try {
    // The Brightspace API lives at the site root, so only the origin is kept. Plain http only goes
    // with the local switch (the local demo course), as the engine's own site policy has it; this
    // needs no DNS, so the routes and the engine then narrow the switch to a site on a loopback or
    // private address (localSwitchFor), and hold a public one to https.
    return { origin: assertAllowedUrl(url, { allowPrivateTargets: policy.allowPrivateTargets, allowHttp: policy.allowPrivateTargets }).origin };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { refused: error };
  }
}

type RequestField = 'USER_NAME' | 'PASSWORD' | 'CLIENT_URL' | 'ORG_UNIT_ID' | 'CLIENT_NAME' | 'MODULES' | 'EXCLUDE_MODULES' | 'SCOPES' | 'MODULE_TITLES' | 'FULL' | 'LANGUAGE';

const WHAT: Partial<Record<RequestField, MessageId>> = {
  USER_NAME: 'error.field.what.user-name',
  PASSWORD: 'error.field.what.password',
  CLIENT_NAME: 'error.field.what.client',
  CLIENT_URL: 'error.field.what.site',
};

const MODULES_MESSAGES: Partial<Record<RuleName, MessageId>> = {
  required: 'error.field.modules-required',
  'not-list': 'error.field.modules-not-list',
  empty: 'error.field.modules-empty',
  'too-many': 'error.field.modules-too-many',
};

/** A broken rule in the request's words: the field by its wire name, and what it is for. */
function requestProblem(field: RequestField, broken: BrokenRule): Message {
  switch (field) {
    case 'ORG_UNIT_ID':
      return msg(broken.rule === 'required' ? 'error.field.org-unit-required' : 'error.field.org-unit-invalid');
    case 'MODULES':
      return broken.rule === 'too-many'
        ? msg('error.field.modules-too-many', { max: broken.max ?? 0 })
        : msg(MODULES_MESSAGES[broken.rule] ?? 'error.field.modules-not-ids');
    case 'EXCLUDE_MODULES':
      if (broken.rule === 'also-chosen') return msg('error.field.exclude-modules-chosen');
      return broken.rule === 'too-many' ? msg('error.field.exclude-modules-too-many', { max: broken.max ?? 0 }) : msg('error.field.exclude-modules-not-ids');
    case 'SCOPES':
      return msg('error.field.scopes', { scopes: COURSE_SCOPES.join(', ') });
    case 'MODULE_TITLES':
      return msg('error.field.module-titles');
    case 'FULL':
      return msg('error.field.full');
    case 'LANGUAGE':
      return msg('error.field.language', { languages: LANGUAGES.join(', ') });
  }
  const what = msg(WHAT[field]!);
  switch (broken.rule) {
    case 'required':
      return msg('error.field.required', { field, what });
    case 'empty':
      return msg('error.field.empty', { field, what });
    case 'too-long':
      return msg('error.field.too-long', { field, max: broken.max ?? 0 });
    case 'control-character':
      return msg('error.field.control-characters', { field });
    case 'hidden-character':
      return msg('error.field.hidden-characters', { field, codePoint: broken.codePoint ?? '' });
    default:
      return msg('error.field.not-text', { field, what });
  }
}

/** LANGUAGE of a body that may not be valid at all: for the language of the error answer itself. */
export function languageOfBody(body: string | undefined): Language | undefined {
  if (body === undefined || body.length > MAX_BODY_BYTES) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return isRecord(parsed) ? languageOf(parsed.LANGUAGE) : undefined;
  } catch {
    return undefined;
  }
}

export function asObject(body: unknown, fields: string): JsonObject {
  if (!isRecord(body)) throw new AppError('invalid_input', msg('error.request.not-object', { fields }));
  return body;
}

/**
 * Checks a body against a request schema and guards its site address: the value, or every
 * problem in the order of `fields`. A refused address alone keeps its own code, so callers (and
 * logs) can tell it from a typo.
 */
function checked<S extends typeof tocRequest | typeof runTestsRequest>(
  schema: S,
  fields: JsonObject,
  order: readonly RequestField[],
  policy: ValidationPolicy,
): { request: z.output<S>; siteUrl: string } {
  const result = schema.safeParse(fields);
  const broken = result.success ? new Map<PropertyKey, BrokenRule>() : brokenRulesByField(result.error.issues);
  const site = broken.has('CLIENT_URL') ? undefined : guardedOrigin(fields.CLIENT_URL as string, policy);
  const problems: Message[] = [];
  for (const field of order) {
    const rule = broken.get(field);
    if (rule !== undefined) problems.push(requestProblem(field, rule));
    else if (field === 'CLIENT_URL' && site !== undefined && 'refused' in site) problems.push(msg('error.field.site-refused', { problem: site.refused.text }));
  }
  if (problems.length === 1 && site !== undefined && 'refused' in site && site.refused.code === 'address_not_allowed') throw site.refused;
  if (!result.success || site === undefined || !('origin' in site)) throw new AppError('invalid_input', joinMessages(problems));
  return { request: result.data as z.output<S>, siteUrl: site.origin };
}

export function parseTocRequest(body: unknown, policy: ValidationPolicy): TocInput {
  const fields = asObject(body, 'ORG_UNIT_ID, CLIENT_URL, USER_NAME and PASSWORD');
  const { request, siteUrl } = checked(tocRequest, fields, ['ORG_UNIT_ID', 'CLIENT_URL', 'USER_NAME', 'PASSWORD', 'LANGUAGE'], policy);
  return { siteUrl, orgUnitId: request.ORG_UNIT_ID, username: request.USER_NAME, password: request.PASSWORD, ...(request.LANGUAGE == null ? {} : { language: request.LANGUAGE }) };
}

export function parseRunTestsRequest(body: unknown, policy: ValidationPolicy): RunTestsInput {
  const fields = asObject(body, 'USER_NAME, PASSWORD, CLIENT_URL, ORG_UNIT_ID, CLIENT_NAME and MODULES');
  const order = ['USER_NAME', 'PASSWORD', 'CLIENT_URL', 'ORG_UNIT_ID', 'CLIENT_NAME', 'MODULES', 'EXCLUDE_MODULES', 'SCOPES', 'MODULE_TITLES', 'FULL', 'LANGUAGE'] as const;
  const { request, siteUrl } = checked(runTestsRequest, fields, order, policy);
  // Titles of this run's modules only.
  const named = new Set([...request.MODULES, ...(request.EXCLUDE_MODULES ?? [])].map(String));
  const titles = Object.entries(request.MODULE_TITLES ?? {}).filter(([id]) => named.has(id));
  return {
    siteUrl,
    orgUnitId: request.ORG_UNIT_ID,
    username: request.USER_NAME,
    password: request.PASSWORD,
    client: request.CLIENT_NAME,
    modules: request.MODULES,
    ...(request.EXCLUDE_MODULES == null || request.EXCLUDE_MODULES.length === 0 ? {} : { excludeModules: request.EXCLUDE_MODULES }),
    ...(request.SCOPES == null ? {} : { scopes: request.SCOPES }),
    ...(titles.length === 0 ? {} : { moduleTitles: Object.fromEntries(titles) }),
    ...(request.FULL === true ? { full: true as const } : {}),
    ...(request.LANGUAGE == null ? {} : { language: request.LANGUAGE }),
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
  const result = jobIdParameter.safeParse(id);
  if (result.success) return result.data;
  const missing = brokenRuleOf(result.error.issues[0]!).rule === 'required';
  throw new AppError('invalid_input', msg(missing ? 'error.request.job-id-missing' : 'error.request.job-id-invalid'));
}
