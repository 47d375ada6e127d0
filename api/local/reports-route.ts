// GET /reports/<capability>/<filename>.html|.json|.csv: a stored report, through the link job-status
// handed its owner (api/http/report-capability.ts), as the edge serves it on AWS
// (infra/edge/report-gate.js). The link is checked before the folder is looked at, so an address
// without a valid link learns nothing, not even whether the report exists; an expired or forged one
// gets 403 and a page that says to open the report from CTPO. Only exact report names are read (no
// listing, nothing outside the folder). A report holds text copied from course pages, so the HTML is
// served in a sandbox: even if some of that text slipped through as markup, it could not reach the
// app's origin (where the sign-in tokens live) nor leak the report's address to the sites it links to.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { languageOfAcceptHeader, DEFAULT_LANGUAGE } from '../i18n/languages.ts';
import { formatMessage, msg } from '../i18n/messages.ts';
import { parseReportPath, verifyReportCapability } from '../http/report-capability.ts';
import type { ReportKey } from '../http/report-capability.ts';
import { REPORT_FILENAME } from '../jobs/report-filename.ts';
import type { ApiRequest } from '../http/types.ts';
import { escapeHtml } from '../report/render-html.ts';
import { REPORT_CSP } from '../report/report-csp.ts';
import type { LocalResponse } from './node-http.ts';

export const REPORTS_PREFIX = '/reports/';

const TYPES = { html: 'text/html; charset=utf-8', json: 'application/json; charset=utf-8', csv: 'text/csv; charset=utf-8' } as const;

/** The policy of the refusal page: its own inline style, nothing else (as the edge's page). */
const REFUSAL_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function refused(request: ApiRequest, expired: boolean): LocalResponse {
  const language = languageOfAcceptHeader(request.headers['accept-language']) ?? DEFAULT_LANGUAGE;
  const title = escapeHtml(formatMessage(msg(expired ? 'page.report-link.expired' : 'page.report-link.invalid'), language));
  const how = escapeHtml(formatMessage(msg('page.report-link.how'), language));
  return {
    status: 403,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': REFUSAL_CSP,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    },
    body:
      `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${title}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1b1b1b}</style></head>` +
      `<body><h1>${title}</h1><p>${how}</p></body></html>`,
  };
}

function notFound(): LocalResponse {
  return {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
    body: 'No report at this address. Check the address, or wait until the run has finished.',
  };
}

export interface ReportsRouteOptions {
  reportsDir: string;
  /** The text of a live signing key by its id, or undefined. */
  keyOf: (keyId: string) => string | undefined;
  /** The Unix second up to which an owner (by tag) ended their links, if they did. */
  revokedUpTo?: (ownerTag: string) => number | undefined;
  now?: () => Date;
}

/** The keys a link may be signed with, as `keyOf` wants them. */
export function keyLookup(...keys: ReportKey[]): (keyId: string) => string | undefined {
  return (keyId) => keys.find((key) => key.keyId === keyId)?.key;
}

export function createReportsRoute(options: ReportsRouteOptions): (request: ApiRequest) => Promise<LocalResponse> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return { status: 405, headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }, body: 'Reports are read-only.' };
    }
    // The raw (still encoded) path must already be a capability and a plain report name: no
    // decoding, so no %2e%2e or %2f tricks, and no other file of the folder can be named.
    const path = request.path.startsWith(REPORTS_PREFIX) ? parseReportPath(request.path.slice(REPORTS_PREFIX.length)) : undefined;
    if (path === undefined || !REPORT_FILENAME.test(path.filename)) return refused(request, false);
    const check = verifyReportCapability({ capability: path.capability, filename: path.filename, now: options.now?.() ?? new Date(), keyOf: options.keyOf, revokedUpTo: options.revokedUpTo });
    if (!check.ok) return refused(request, check.reason === 'expired');
    const { filename, extension } = path;
    let body: Buffer;
    try {
      body = await readFile(join(options.reportsDir, `${filename}.${extension}`));
    } catch {
      return notFound();
    }
    const headers: Record<string, string> = {
      'content-type': TYPES[extension],
      // The link is the permission: no shared cache keeps a copy, and the address leaves in no Referer.
      'cache-control': 'private, no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex',
    };
    if (extension === 'html') headers['content-security-policy'] = REPORT_CSP;
    // A spreadsheet file: saved, not shown in the browser.
    if (extension === 'csv') headers['content-disposition'] = `attachment; filename="${filename}.csv"`;
    return { status: 200, headers, body };
  };
}
