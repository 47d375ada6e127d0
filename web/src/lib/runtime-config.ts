// The app's runtime configuration: one build serves every environment, and /config.json says
// where sign-in and the API live. It is read once at start and validated before anything uses it.

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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function httpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Checks a parsed config.json; every problem is listed, not only the first. */
export function parseRuntimeConfig(raw: unknown): ConfigResult {
  if (!isRecord(raw)) return { ok: false, problems: [{ kind: 'notObject' }] };
  const problems: ConfigProblem[] = [];

  const text = (field: string, required: boolean): string | undefined => {
    const value = raw[field];
    if (value === undefined || value === null) {
      if (required) problems.push({ kind: 'missing', field });
      return undefined;
    }
    if (typeof value !== 'string' || value.trim() === '') {
      problems.push({ kind: 'notText', field });
      return undefined;
    }
    return value.trim();
  };
  const url = (field: string, required: boolean): URL | undefined => {
    const value = text(field, required);
    if (value === undefined) return undefined;
    const parsed = httpUrl(value);
    if (!parsed) problems.push({ kind: 'notUrl', field });
    return parsed;
  };

  const region = text('region', true);
  const userPoolId = text('userPoolId', true);
  if (userPoolId !== undefined && !POOL_ID.test(userPoolId)) problems.push({ kind: 'notPoolId', field: 'userPoolId' });
  const userPoolClientId = text('userPoolClientId', true);
  const oauthDomain = text('oauthDomain', true);
  if (oauthDomain !== undefined && !OAUTH_DOMAIN.test(oauthDomain)) problems.push({ kind: 'notHost', field: 'oauthDomain' });
  const userPoolEndpoint = url('userPoolEndpoint', false);
  const siteUrl = url('siteUrl', true);
  const apiUrl = url('apiUrl', true);
  const jobStatusApiUrl = url('jobStatusApiUrl', false);

  let pollIntervalMs = DEFAULT_POLL_INTERVAL_MS;
  if (raw.pollIntervalMs !== undefined && raw.pollIntervalMs !== null) {
    const value = raw.pollIntervalMs;
    if (typeof value === 'number' && Number.isInteger(value) && value >= MIN_POLL_INTERVAL_MS) pollIntervalMs = value;
    else problems.push({ kind: 'notPollInterval', field: 'pollIntervalMs' });
  }

  let localHosts: string[] = [];
  if (raw.localHosts !== undefined && raw.localHosts !== null) {
    const value = raw.localHosts;
    if (Array.isArray(value) && value.every((host) => typeof host === 'string' && host.trim() !== '')) {
      localHosts = value.map((host: string) => host.trim());
    } else {
      problems.push({ kind: 'notHostList', field: 'localHosts' });
    }
  }

  let i18n: RuntimeConfig['i18n'];
  if (raw.i18n !== undefined && raw.i18n !== null) {
    const section = raw.i18n;
    if (!isRecord(section)) {
      problems.push({ kind: 'notSection', field: 'i18n' });
    } else {
      i18n = {};
      const language = section.defaultLanguage;
      if (language !== undefined) {
        if (typeof language === 'string' && language.trim() !== '') i18n.defaultLanguage = language.trim();
        else problems.push({ kind: 'notText', field: 'i18n.defaultLanguage' });
      }
      for (const key of ['batchUrl', 'collectionUrl'] as const) {
        const value = section[key];
        if (value === undefined) continue;
        const parsed = typeof value === 'string' ? httpUrl(value.trim()) : undefined;
        if (parsed) i18n[key] = parsed.href;
        else problems.push({ kind: 'notUrl', field: `i18n.${key}` });
      }
    }
  }

  if (
    problems.length > 0 ||
    !region ||
    !userPoolId ||
    !userPoolClientId ||
    !oauthDomain ||
    !siteUrl ||
    !apiUrl
  ) {
    return { ok: false, problems };
  }
  const withoutTrailingSlash = (value: URL) => value.href.replace(/\/+$/, '');
  const config: RuntimeConfig = {
    region,
    userPoolId,
    userPoolClientId,
    oauthDomain,
    siteUrl: `${siteUrl.origin}/`,
    apiUrl: withoutTrailingSlash(apiUrl),
    jobStatusApiUrl: withoutTrailingSlash(jobStatusApiUrl ?? apiUrl),
    pollIntervalMs,
    localHosts,
  };
  if (userPoolEndpoint) config.userPoolEndpoint = userPoolEndpoint.href;
  if (i18n) config.i18n = i18n;
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
