// DELETE /api/report-links: the caller ends every report link handed out to them so far (a link is a
// bearer capability; one copied or taken with a stolen token stops working at once). The reports'
// servers refuse links of the caller issued up to now; the app's next job-status call signs new ones.
import { AppError } from '../errors.ts';
import { msg } from '../i18n/messages.ts';
import { ownerTagOf } from './report-capability.ts';
import { jsonResponse } from './respond.ts';
import { authenticate, withErrors } from './routes.ts';
import type { ApiDeps } from './routes.ts';
import type { ApiRequest, ApiResponse } from './types.ts';

export const REPORT_LINKS_PATH = '/api/report-links';

export function handleRevokeReportLinks(request: ApiRequest, deps: ApiDeps): Promise<ApiResponse> {
  return withErrors(request, deps, async () => {
    const caller = await authenticate(request, deps);
    if (deps.reportLinkRevocations === undefined) throw new AppError('not_found', msg('error.api.no-such-route'));
    const at = deps.now?.() ?? new Date();
    await deps.reportLinkRevocations.revokeAll(ownerTagOf(caller.sub), at);
    return jsonResponse(request, deps.allowedOrigins, 200, { revoked: true, at: at.toISOString() });
  });
}
