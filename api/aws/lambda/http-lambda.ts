// The QA API's routes as Lambda functions behind the HTTP API (payload format 2.0): an event
// becomes the framework-free ApiRequest, the same route handler the local server runs answers it,
// and its ApiResponse goes back as the Lambda result. Each function serves one route and is given
// only the parts of the API it needs; the others refuse, loudly, if ever called.
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { createCognitoTokenVerifier } from '../../http/access-token.ts';
import type { TokenVerifier } from '../../http/access-token.ts';
import type { ApiDeps } from '../../http/routes.ts';
import type { ApiRequest, ApiResponse } from '../../http/types.ts';
import type { DismissalStore, JobHistory, JobRunner, JobStore, ProtocolStore, ReportStore } from '../../jobs/types.ts';
import { EDGE_TOKEN_HEADER, ENV, SITE_HOST_HEADER, requireEnv, requirePositiveInteger } from '../settings.ts';
import type { Environment } from '../settings.ts';

export type Route = (request: ApiRequest, deps: ApiDeps) => Promise<ApiResponse>;
export type LambdaHandler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

/** Runs one user may have in progress at once, as on the local stack. */
export const MAX_ACTIVE_RUNS_PER_USER = 3;
/**
 * Runs the deployment may have in progress at once (one Fargate task each) unless the stack sets
 * CTPO_MAX_ACTIVE_RUNS: a bound on the bill and within a new account's Fargate quota.
 */
export const DEFAULT_MAX_ACTIVE_RUNS = 20;
/** API Gateway gives up on a route after 30 s; the table of contents answers with its own error first. */
export const TOC_TIMEOUT_MS = 25_000;

export function apiRequestOf(event: APIGatewayProxyEventV2): ApiRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  // Behind CloudFront the Authorization header carries CloudFront's own signature, and the caller's
  // token arrives in EDGE_TOKEN_HEADER; only that one is the caller's.
  delete headers.authorization;
  const token = headers[EDGE_TOKEN_HEADER];
  delete headers[EDGE_TOKEN_HEADER];
  if (token !== undefined) headers.authorization = token;
  const request: ApiRequest = {
    method: event.requestContext.http.method.toUpperCase(),
    path: event.rawPath,
    headers,
    query: new URLSearchParams(event.rawQueryString ?? ''),
  };
  if (event.body !== undefined) {
    request.body = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  }
  return request;
}

export function lambdaResultOf(response: ApiResponse): APIGatewayProxyStructuredResultV2 {
  return { statusCode: response.status, headers: response.headers, body: response.body, isBase64Encoded: false };
}

const HOST = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::\d{1,5})?$/i;

/**
 * The report address for one request: as configured when it is absolute; when it is a path on the
 * site's own origin, on the host the edge says the caller used (relative if none, which the app
 * resolves against its own origin).
 */
export function outputUrlFor(request: ApiRequest, configured: string): string {
  if (!configured.startsWith('/')) return configured;
  const host = request.headers[SITE_HOST_HEADER];
  return host !== undefined && HOST.test(host) ? `https://${host.toLowerCase()}${configured}` : configured;
}

export function lambdaHandlerOf(route: Route, deps: ApiDeps): LambdaHandler {
  return async (event) => {
    const request = apiRequestOf(event);
    return lambdaResultOf(await route(request, { ...deps, outputUrl: outputUrlFor(request, deps.outputUrl) }));
  };
}

function notServedHere(part: string): never {
  throw new Error(`${part} is not available to this function: it serves another route.`);
}

/** A job store for a function whose route keeps no jobs. */
export const NO_JOB_STORE: JobStore = {
  create: async () => notServedHere('The job store'),
  createWithinLimits: async () => notServedHere('The job store'),
  get: async () => notServedHere('The job store'),
  update: async () => notServedHere('The job store'),
  countActive: async () => notServedHere('The job store'),
  listByStatus: async () => notServedHere('The job store'),
};

/** The history of a function whose route lists no runs. */
export const NO_JOB_HISTORY: JobHistory = {
  listByOwner: async () => notServedHere('The job history'),
  previousSucceeded: async () => notServedHere('The job history'),
};

/** The dismissals of a function whose route keeps none. */
export const NO_DISMISSALS: DismissalStore = {
  list: async () => notServedHere('The dismissal store'),
  put: async () => notServedHere('The dismissal store'),
  remove: async () => notServedHere('The dismissal store'),
};

/** A runner for a function whose route starts no runs. */
export const NO_JOB_RUNNER: JobRunner = {
  submit: async () => notServedHere('The job runner'),
};

/** For a function whose route reads no table of contents (it keeps the Brightspace client out of its bundle). */
export const NO_TABLE_OF_CONTENTS: ApiDeps['loadTableOfContents'] = async () => notServedHere('Reading a table of contents');

/** For a function whose route hands out no report links (only job-status holds the signing key). */
export const NO_REPORT_SIGNING_KEY: ApiDeps['reportSigningKey'] = async () => notServedHere('The report-link signing key');

/** Reads one SSM parameter's value (the default reads it with the function's own role). */
export type ParameterReader = (name: string) => Promise<string>;

const readParameter: ParameterReader = async (name) => {
  const answer = await new SSMClient({}).send(new GetParameterCommand({ Name: name }));
  const value = answer.Parameter?.Value?.trim();
  if (value === undefined || value === '') throw new Error(`The SSM parameter ${name} is empty: this code runs only in the CTPO stack, which fills it.`);
  return value;
};

/**
 * The token verifier for the app's client: its id from the environment, or read once from the SSM
 * parameter the environment names (a failed read is tried again on the next request).
 */
export function tokenVerifierFromEnv(env: Environment, read: ParameterReader = readParameter): TokenVerifier {
  const userPoolId = requireEnv(env, ENV.userPoolId);
  const clientId = env[ENV.userPoolClientId]?.trim();
  if (clientId !== undefined && clientId !== '') return createCognitoTokenVerifier({ userPoolId, clientId });
  const parameter = requireEnv(env, ENV.userPoolClientIdParameter);
  let verifier: Promise<TokenVerifier> | undefined;
  return {
    async verify(accessToken) {
      verifier ??= read(parameter).then((id) => createCognitoTokenVerifier({ userPoolId, clientId: id }));
      try {
        return await (await verifier).verify(accessToken);
      } catch (error) {
        // Only a failed read is forgotten; a refused token leaves the verifier in place.
        await verifier.catch(() => {
          verifier = undefined;
        });
        throw error;
      }
    },
  };
}

/** The API's dependencies on AWS, from the environment the stack sets. */
export function apiDepsFromEnv(
  env: Environment,
  parts: {
    jobs: JobStore;
    runner: JobRunner;
    loadTableOfContents: ApiDeps['loadTableOfContents'];
    reportSigningKey?: ApiDeps['reportSigningKey'];
    history?: JobHistory;
    dismissals?: DismissalStore;
    protocols?: ProtocolStore;
    reports?: ReportStore;
    nameOf?: ApiDeps['nameOf'];
    tocLoads?: ApiDeps['tocLoads'];
  },
  readParameterValue: ParameterReader = readParameter,
): ApiDeps {
  const allowedOrigins = (env[ENV.allowedOrigins] ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  return {
    verifier: tokenVerifierFromEnv(env, readParameterValue),
    jobs: parts.jobs,
    history: parts.history ?? NO_JOB_HISTORY,
    dismissals: parts.dismissals ?? NO_DISMISSALS,
    ...(parts.nameOf === undefined ? {} : { nameOf: parts.nameOf }),
    ...(parts.protocols === undefined ? {} : { protocols: parts.protocols }),
    ...(parts.reports === undefined ? {} : { reports: parts.reports }),
    ...(parts.tocLoads === undefined ? {} : { tocLoads: parts.tocLoads }),
    runner: parts.runner,
    loadTableOfContents: parts.loadTableOfContents,
    outputUrl: requireEnv(env, ENV.reportsUrl),
    reportSigningKey: parts.reportSigningKey ?? NO_REPORT_SIGNING_KEY,
    allowedOrigins,
    // On AWS every fetch goes to the public internet only.
    allowPrivateTargets: false,
    maxActiveRunsPerUser: MAX_ACTIVE_RUNS_PER_USER,
    maxActiveRuns: env[ENV.maxActiveRuns] === undefined ? DEFAULT_MAX_ACTIVE_RUNS : requirePositiveInteger(env, ENV.maxActiveRuns),
    tocTimeoutMs: TOC_TIMEOUT_MS,
    log: (line) => console.error(line),
  };
}
