// The QA API as one handler: CORS preflight, routing and method checks around the three routes.
import { AppError } from '../errors.ts';
import { msg } from '../i18n/messages.ts';
import { errorResponse } from './respond.ts';
import { JOB_STATUS_PREFIX, handleJobStatus, handleRunTests, handleToc } from './routes.ts';
import type { ApiDeps } from './routes.ts';
import type { ApiHandler, ApiRequest, ApiResponse } from './types.ts';

interface Route {
  method: 'GET' | 'POST';
  handle: (request: ApiRequest, deps: ApiDeps) => Promise<ApiResponse>;
}

function routeOf(path: string): Route | undefined {
  if (path === '/api/toc') return { method: 'POST', handle: handleToc };
  if (path === '/api/run-tests') return { method: 'POST', handle: handleRunTests };
  if (path.startsWith(JOB_STATUS_PREFIX)) return { method: 'GET', handle: handleJobStatus };
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
      'access-control-allow-methods': `${route.method}, OPTIONS`,
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
    if (request.method !== route.method) {
      const response = errorResponse(
        request,
        deps.allowedOrigins,
        new AppError('method_not_allowed', msg('error.api.method', { path: request.path.startsWith(JOB_STATUS_PREFIX) ? '/api/job-status' : request.path, method: route.method })),
      );
      response.headers.allow = `${route.method}, OPTIONS`;
      return response;
    }
    return route.handle(request, deps);
  };
}
