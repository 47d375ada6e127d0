// The app's runtime configuration: one build serves every environment, and /config.json says
// where sign-in and the API live. It is read once at start and validated before anything uses it.
import * as z from 'zod/mini';

export interface RuntimeConfig {
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  /** Host of the hosted login, with an optional port and path, never a scheme. */
  oauthDomain: string;
  /** Set only by the local stack, so token refresh stays on this machine. */
  userPoolEndpoint?: string;
  /** Production origin with a trailing slash: the sign-in and sign-out target off localhost. */
  siteUrl: string;
  /** Base of /api/toc and /api/run-tests, without a trailing slash. */
  apiUrl: string;
  /** Base of /api/job-status/..., without a trailing slash; apiUrl when not configured. */
  jobStatusApiUrl: string;
  pollIntervalMs: number;
  /** Extra host names or IPs treated as local by the redirect rule. */
  localHosts: string[];
  i18n?: { defaultLanguage?: string; batchUrl?: string; collectionUrl?: string };
}

export type ConfigProblem =
  | { kind: 'unreachable' }
  | { kind: 'http'; status: number }
  | { kind: 'notJson' }
  | { kind: 'notObject' }
  | {
      kind: 'missing' | 'notText' | 'notUrl' | 'notHost' | 'notPoolId' | 'notPollInterval' | 'notHostList' | 'notSection';
      field: string;
    };

export type ConfigResult = { ok: true; config: RuntimeConfig } | { ok: false; problems: ConfigProblem[] };

export const DEFAULT_POLL_INTERVAL_MS = 10_000;
const MIN_POLL_INTERVAL_MS = 1_000;

// Cognito pool ids are `<region>_<id>`; Amplify reads the region from the part before `_`.
const POOL_ID = /^[a-z]{2}(?:-[a-z]+)+-\d+_[0-9A-Za-z]+$/;
// A host (name, IPv4 or bracketed IPv6), an optional port and an optional path: Amplify prefixes https://.
const OAUTH_DOMAIN = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?:\/[^\s?#]*)?$/;

function httpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

// Each check names the kind of problem as its issue's message; the field is the issue's path.
type FieldProblemKind = Extract<ConfigProblem, { field: string }>['kind'];
const absent = (value: unknown) => value === undefined || value === null;
const missingOr = (kind: FieldProblemKind) => (issue: { input?: unknown }) => (absent(issue.input) ? 'missing' : kind);
const problem = (kind: FieldProblemKind, input: unknown) => ({ code: 'custom' as const, message: kind, input });

/** Text with something in it, trimmed; absent is `missing`. */
const text = z.string({ error: missingOr('notText') }).check(z.trim(), z.minLength(1, 'notText'));
const matching = (pattern: RegExp, kind: FieldProblemKind) => text.check(z.regex(pattern, kind));
const webUrl = z.pipe(
  text,
  z.transform((value, context) => {
    const url = httpUrl(value);
    if (url === undefined) context.issues.push(problem('notUrl', value));
    return url as URL;
  }),
);
/** An address of the i18n section: anything but an http(s) address there is `notUrl`. */
const sectionUrl = z.pipe(
  z.string('notUrl'),
  z.transform((value, context) => {
    const url = httpUrl(value.trim());
    if (url === undefined) context.issues.push(problem('notUrl', value));
    return url?.href ?? '';
  }),
);

const configFile = z.object(
  {
    region: text,
    userPoolId: matching(POOL_ID, 'notPoolId'),
    userPoolClientId: text,
    oauthDomain: matching(OAUTH_DOMAIN, 'notHost'),
    userPoolEndpoint: z.nullish(webUrl),
    siteUrl: webUrl,
    apiUrl: webUrl,
    jobStatusApiUrl: z.nullish(webUrl),
    pollIntervalMs: z.nullish(z.int('notPollInterval').check(z.minimum(MIN_POLL_INTERVAL_MS, 'notPollInterval'))),
    localHosts: z.nullish(z.array(z.string('notHostList').check(z.trim(), z.minLength(1, 'notHostList')), 'notHostList')),
    i18n: z.nullish(
      z.object({ defaultLanguage: z.optional(z.string('notText').check(z.trim(), z.minLength(1, 'notText'))), batchUrl: z.optional(sectionUrl), collectionUrl: z.optional(sectionUrl) }, 'notSection'),
    ),
  },
  'notObject',
);

/** Checks a parsed config.json; every problem is listed (one per field), not only the first. */
export function parseRuntimeConfig(raw: unknown): ConfigResult {
  const result = configFile.safeParse(raw);
  if (!result.success) {
    const problems = new Map<string, ConfigProblem>();
    for (const issue of result.error.issues) {
      // A list's entries are the list's problem: localHosts, not localHosts.1.
      const field = issue.path.filter((part) => typeof part === 'string').join('.');
      if (field === '') return { ok: false, problems: [{ kind: 'notObject' }] };
      if (!problems.has(field)) problems.set(field, { kind: issue.message as FieldProblemKind, field });
    }
    return { ok: false, problems: [...problems.values()] };
  }
  const file = result.data;
  const withoutTrailingSlash = (value: URL) => value.href.replace(/\/+$/, '');
  const config: RuntimeConfig = {
    region: file.region,
    userPoolId: file.userPoolId,
    userPoolClientId: file.userPoolClientId,
    oauthDomain: file.oauthDomain,
    siteUrl: `${file.siteUrl.origin}/`,
    apiUrl: withoutTrailingSlash(file.apiUrl),
    jobStatusApiUrl: withoutTrailingSlash(file.jobStatusApiUrl ?? file.apiUrl),
    pollIntervalMs: file.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    localHosts: file.localHosts ?? [],
  };
  if (file.userPoolEndpoint) config.userPoolEndpoint = file.userPoolEndpoint.href;
  if (file.i18n) config.i18n = file.i18n;
  return { ok: true, config };
}

/** Fetches and checks /config.json, bypassing every cache so a redeploy takes effect at once. */
export async function loadRuntimeConfig(): Promise<ConfigResult> {
  let response: Response;
  try {
    response = await fetch('/config.json', { cache: 'no-store', credentials: 'same-origin' });
  } catch (error) {
    console.error('CTPO: /config.json could not be fetched', error);
    return { ok: false, problems: [{ kind: 'unreachable' }] };
  }
  if (!response.ok) return { ok: false, problems: [{ kind: 'http', status: response.status }] };
  let raw: unknown;
  try {
    raw = await response.json();
  } catch {
    return { ok: false, problems: [{ kind: 'notJson' }] };
  }
  return parseRuntimeConfig(raw);
}

let current: RuntimeConfig | undefined;

/** Makes the validated config available to the API client; called once at start. */
export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
}

export function getRuntimeConfig(): RuntimeConfig {
  if (!current) throw new Error('The runtime configuration is read before it was loaded.');
  return current;
}
