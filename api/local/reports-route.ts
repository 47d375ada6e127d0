// GET /reports/<filename>.html|.json|.csv: the stored reports, by exact name only (no listing, nothing
// outside the folder). A report holds text copied from course pages, so the HTML is served in a
// sandbox: even if some of that text slipped through as markup, it could not reach the app's
// origin (where the sign-in tokens live) nor leak the report's address to the sites it links to.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPORT_FILENAME } from '../http/report-filename.ts';
import type { ApiRequest } from '../http/types.ts';
import type { LocalResponse } from './node-http.ts';

export const REPORTS_PREFIX = '/reports/';

export const REPORT_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "script-src 'unsafe-inline'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox allow-downloads',
].join('; ');

const TYPES = { html: 'text/html; charset=utf-8', json: 'application/json; charset=utf-8', csv: 'text/csv; charset=utf-8' } as const;

function notFound(): LocalResponse {
  return {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
    body: 'No report at this address. Check the address, or wait until the run has finished.',
  };
}

export function createReportsRoute(reportsDir: string): (request: ApiRequest) => Promise<LocalResponse> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return { status: 405, headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }, body: 'Reports are read-only.' };
    }
    // The raw (still encoded) name must already be a plain report name: no decoding, so no
    // %2e%2e or %2f tricks, and no other file of the folder can be named.
    const match = /^([^/]+)\.(html|json|csv)$/.exec(request.path.slice(REPORTS_PREFIX.length));
    if (!request.path.startsWith(REPORTS_PREFIX) || match === null || !REPORT_FILENAME.test(match[1]!)) return notFound();
    const [, name, extension] = match as unknown as [string, string, keyof typeof TYPES];
    let body: Buffer;
    try {
      body = await readFile(join(reportsDir, `${name}.${extension}`));
    } catch {
      return notFound();
    }
    const headers: Record<string, string> = {
      'content-type': TYPES[extension],
      'cache-control': 'private, no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex',
    };
    if (extension === 'html') headers['content-security-policy'] = REPORT_CSP;
    // A spreadsheet file: saved, not shown in the browser.
    if (extension === 'csv') headers['content-disposition'] = `attachment; filename="${name}.csv"`;
    return { status: 200, headers, body };
  };
}
