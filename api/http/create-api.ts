// The QA API as one handler: CORS preflight, routing and method checks around the routes.
import { AppError } from '../errors.ts';
import { msg } from '../i18n/messages.ts';
import { DISMISSALS_PATH, JOBS_PATH, handleDismissals, handleJobs } from './history-routes.ts';
import { PROTOCOLS_PATH, PROTOCOL_RUN_PREFIX } from './protocol-contract.ts';
import { handleProtocols } from './protocol-routes.ts';
import { REPORT_LINKS_PATH, handleRevokeReportLinks } from './report-link-routes.ts';
import { errorResponse } from './respond.ts';
import { JOB_PREFIX, JOB_STATUS_PREFIX, handleCancelJob, handleJobStatus, handleRunTests, handleToc } from './routes.ts';
import type { ApiDeps } from './routes.ts';
import type { ApiHandler, ApiRequest, ApiResponse } from './types.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface Route {
  /** The path as named in error messages (a job-status path without its id). */
  name: string;
  methods: readonly Method[];
  handle: (request: ApiRequest, deps: ApiDeps) => Promise<ApiResponse>;
}

function routeOf(path: string): Route | undefined {
  if (path === '/api/toc') return { name: path, methods: ['POST'], handle: handleToc };
  if (path === '/api/run-tests') return { name: path, methods: ['POST'], handle: handleRunTests };
  if (path.startsWith(JOB_STATUS_PREFIX)) return { name: '/api/job-status', methods: ['GET'], handle: handleJobStatus };
  if (path === JOBS_PATH) return { name: path, methods: ['GET'], handle: handleJobs };
  if (path.startsWith(JOB_PREFIX)) return { name: '/api/jobs/{id}', methods: ['DELETE'], handle: handleCancelJob };
  if (path === DISMISSALS_PATH) return { name: path, methods: ['GET', 'PUT', 'DELETE'], handle: handleDismissals };
  if (path === PROTOCOLS_PATH) return { name: path, methods: ['GET', 'PUT', 'DELETE'], handle: handleProtocols };
  if (path.startsWith(PROTOCOL_RUN_PREFIX)) return { name: PROTOCOL_RUN_PREFIX, methods: ['GET', 'PUT', 'POST'], handle: handleProtocols };
  if (path === REPORT_LINKS_PATH) return { name: path, methods: ['DELETE'], handle: handleRevokeReportLinks };
  return undefined;
}

function preflight(request: ApiRequest, deps: ApiDeps, route: Route): ApiResponse {
  const origin = request.headers.origin;
  if (origin === undefined || !deps.allowedOrigins.includes(origin)) {
    return errorResponse(request, deps.allowedOrigins, new AppError('forbidden', msg('error.api.origin-not-allowed')));
  }
  return {
    status: 204,
    headers: {
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': [...route.methods, 'OPTIONS'].join(', '),
      'access-control-allow-headers': 'authorization, content-type, accept, accept-language',
      'access-control-max-age': '600',
      'cache-control': 'no-store',
      vary: 'Origin',
    },
    body: '',
  };
}

export function createApi(deps: ApiDeps): ApiHandler {
  return async (request) => {
    const route = routeOf(request.path);
    if (route === undefined) {
      return errorResponse(request, deps.allowedOrigins, new AppError('not_found', msg('error.api.no-route', { path: request.path.slice(0, 200) })));
    }
    if (request.method === 'OPTIONS') return preflight(request, deps, route);
    if (!(route.methods as readonly string[]).includes(request.method)) {
      const response = errorResponse(
        request,
        deps.allowedOrigins,
        new AppError('method_not_allowed', msg('error.api.method', { path: route.name, method: route.methods.join(', ') })),
      );
      response.headers.allow = [...route.methods, 'OPTIONS'].join(', ');
      return response;
    }
    return route.handle(request, deps);
  };
}
