// Request validation for the QA API: the body is read as JSON within the size limit, then each
// field is checked for its exact type and bounds. Any input either becomes a clean, typed request or
// an AppError with a 4xx code that names every field at fault; nothing else is ever thrown.
import { AppError } from '../errors.ts';
import { assertAllowedUrl } from '../net/address-guard.ts';
import { MAX_BODY_BYTES } from './contract.ts';
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
}

export interface RunTestsInput extends TocInput {
  client: string;
  /** Distinct module ids, in the order sent. */
  modules: number[];
}

export interface ValidationPolicy {
  allowPrivateTargets: boolean;
}

/** Reads the JSON body: 413 over the limit, 415 when not JSON, 400 when it does not parse. */
export function readJsonBody(request: ApiRequest): unknown {
  const body = request.body ?? '';
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) {
    throw new AppError('payload_too_large', `The request is too large: at most ${MAX_BODY_BYTES / 1024} KiB of JSON is accepted.`);
  }
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new AppError('unsupported_media_type', 'Send the request body as JSON, with the header Content-Type: application/json.');
  }
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new AppError('invalid_input', 'The request body is not valid JSON.');
  }
}

// C0 and C1 control characters: never part of a name, a label or a user name.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

type FieldReader<T> = (value: unknown, problems: string[]) => T | undefined;

function text(field: string, max: number, options: { trim: boolean; what: string }): FieldReader<string> {
  return (value, problems) => {
    if (value === undefined || value === null) {
      problems.push(`${field} is required (${options.what}).`);
      return undefined;
    }
    if (typeof value !== 'string') {
      problems.push(`${field} must be text (${options.what}).`);
      return undefined;
    }
    const cleaned = options.trim ? value.trim() : value;
    if (cleaned.trim() === '') {
      problems.push(`${field} must not be empty (${options.what}).`);
      return undefined;
    }
    if (cleaned.length > max) {
      problems.push(`${field} is too long: at most ${max} characters.`);
      return undefined;
    }
    if (options.trim && CONTROL.test(cleaned)) {
      problems.push(`${field} must not contain control characters.`);
      return undefined;
    }
    return cleaned;
  };
}

const readUserName = text('USER_NAME', LIMITS.userName, { trim: true, what: 'the Brightspace user name' });
// A password is taken exactly as typed: spaces at either end can be part of it.
const readPassword = text('PASSWORD', LIMITS.password, { trim: false, what: 'the Brightspace password' });
const readClientName = text('CLIENT_NAME', LIMITS.clientName, { trim: true, what: 'the client label shown on the report' });

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
    problems.push("ORG_UNIT_ID is required (the course's org unit ID, a whole number such as 6606).");
    return undefined;
  }
  const id = positiveId(value);
  if (id === undefined) problems.push('ORG_UNIT_ID must be a positive whole number, such as 6606.');
  return id;
};

function readSiteUrl(value: unknown, problems: string[], addressErrors: AppError[], policy: ValidationPolicy): string | undefined {
  const what = 'the Brightspace site address, such as https://school.brightspace.com';
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    problems.push(`CLIENT_URL is required (${what}).`);
    return undefined;
  }
  if (typeof value !== 'string') {
    problems.push(`CLIENT_URL must be text (${what}).`);
    return undefined;
  }
  if (value.length > LIMITS.clientUrl) {
    problems.push(`CLIENT_URL is too long: at most ${LIMITS.clientUrl} characters.`);
    return undefined;
  }
  try {
    // The Brightspace API lives at the site root, so only the origin is kept. Plain http only goes
    // with the local switch (the local demo course), as the engine's own site policy has it.
    return assertAllowedUrl(value, { allowPrivateTargets: policy.allowPrivateTargets, allowHttp: policy.allowPrivateTargets }).origin;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    problems.push(`CLIENT_URL: ${error.message}`);
    if (error.code === 'address_not_allowed') addressErrors.push(error);
    return undefined;
  }
}

const readModules: FieldReader<number[]> = (value, problems) => {
  if (value === undefined || value === null) {
    problems.push('MODULES is required: the list of module IDs to test.');
    return undefined;
  }
  if (!Array.isArray(value)) {
    problems.push('MODULES must be a list of module IDs (positive whole numbers).');
    return undefined;
  }
  if (value.length === 0) {
    problems.push('MODULES must list at least one module ID.');
    return undefined;
  }
  if (value.length > LIMITS.modules) {
    problems.push(`MODULES lists too many modules: at most ${LIMITS.modules}.`);
    return undefined;
  }
  if (!value.every((id) => typeof id === 'number' && Number.isSafeInteger(id) && id > 0)) {
    problems.push('MODULES must contain only module IDs (positive whole numbers).');
    return undefined;
  }
  return [...new Set(value as number[])];
};

function asObject(body: unknown, fields: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('invalid_input', `The request body must be a JSON object with the fields ${fields}.`);
  }
  return body as Record<string, unknown>;
}

function fail(problems: string[], addressErrors: AppError[]): never {
  // A refused address alone keeps its own code, so callers (and logs) can tell it from a typo.
  if (problems.length === 1 && addressErrors.length === 1) throw addressErrors[0]!;
  throw new AppError('invalid_input', problems.join(' '));
}

export function parseTocRequest(body: unknown, policy: ValidationPolicy): TocInput {
  const fields = asObject(body, 'ORG_UNIT_ID, CLIENT_URL, USER_NAME and PASSWORD');
  const problems: string[] = [];
  const addressErrors: AppError[] = [];
  const orgUnitId = readOrgUnitId(fields.ORG_UNIT_ID, problems);
  const siteUrl = readSiteUrl(fields.CLIENT_URL, problems, addressErrors, policy);
  const username = readUserName(fields.USER_NAME, problems);
  const password = readPassword(fields.PASSWORD, problems);
  if (orgUnitId === undefined || siteUrl === undefined || username === undefined || password === undefined) {
    fail(problems, addressErrors);
  }
  return { siteUrl, orgUnitId, username, password };
}

export function parseRunTestsRequest(body: unknown, policy: ValidationPolicy): RunTestsInput {
  const fields = asObject(body, 'USER_NAME, PASSWORD, CLIENT_URL, ORG_UNIT_ID, CLIENT_NAME and MODULES');
  const problems: string[] = [];
  const addressErrors: AppError[] = [];
  const username = readUserName(fields.USER_NAME, problems);
  const password = readPassword(fields.PASSWORD, problems);
  const siteUrl = readSiteUrl(fields.CLIENT_URL, problems, addressErrors, policy);
  const orgUnitId = readOrgUnitId(fields.ORG_UNIT_ID, problems);
  const client = readClientName(fields.CLIENT_NAME, problems);
  const modules = readModules(fields.MODULES, problems);
  if (
    username === undefined ||
    password === undefined ||
    siteUrl === undefined ||
    orgUnitId === undefined ||
    client === undefined ||
    modules === undefined
  ) {
    fail(problems, addressErrors);
  }
  return { siteUrl, orgUnitId, username, password, client, modules };
}

/** The job id of GET /api/job-status/{jobArn}, from the encoded path segment. */
export function parseJobId(encoded: string): string {
  let id: string;
  try {
    id = decodeURIComponent(encoded);
  } catch {
    throw new AppError('invalid_input', 'The job identifier in the address is not valid.');
  }
  if (id.trim() === '') throw new AppError('invalid_input', 'The job identifier is missing from the address.');
  if (id.length > 256 || CONTROL.test(id)) throw new AppError('invalid_input', 'The job identifier in the address is not valid.');
  return id;
}
