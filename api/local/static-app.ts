// Serves the built app (web/dist): files by exact path inside the folder only, the app shell for any
// extension-less path (client-side routes), long caching for content-hashed assets, revalidation
// for everything else, and the security headers the app runs under.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import type { ApiRequest } from '../http/types.ts';
import type { LocalResponse } from './node-http.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

// Vite names built assets `<name>-<hash>.<ext>` under assets/: their content never changes.
const HASHED_ASSET = /^\/assets\/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

/** The app's Content-Security-Policy: everything from this origin only, no inline scripts. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // React's style attributes and the design system's inline styles.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const APP_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': APP_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

function text(status: number, body: string, extra: Record<string, string> = {}): LocalResponse {
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...extra },
    body,
  };
}

export interface StaticApp {
  handle(request: ApiRequest): Promise<LocalResponse>;
}

export function createStaticApp(distDir: string): StaticApp {
  const root = resolve(distDir);

  async function fileAt(path: string): Promise<{ body: Buffer; etag: string } | undefined> {
    try {
      const info = await stat(path);
      if (!info.isFile()) return undefined;
      const body = await readFile(path);
      return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    } catch {
      return undefined;
    }
  }

  function serve(request: ApiRequest, file: { body: Buffer; etag: string }, urlPath: string, contentType: string): LocalResponse {
    const cacheControl = HASHED_ASSET.test(urlPath) ? 'public, max-age=31536000, immutable' : 'no-cache';
    const headers = { ...APP_SECURITY_HEADERS, 'content-type': contentType, 'cache-control': cacheControl, etag: file.etag };
    if (request.headers['if-none-match'] === file.etag) return { status: 304, headers, body: '' };
    return { status: 200, headers, body: file.body };
  }

  return {
    async handle(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return text(405, 'Only GET and HEAD are served here.', { allow: 'GET, HEAD' });
      }
      let urlPath: string;
      try {
        urlPath = decodeURIComponent(request.path);
      } catch {
        return text(400, 'The address is not valid.');
      }
      if (urlPath.includes('\0')) return text(400, 'The address is not valid.');

      const shell = await fileAt(resolve(root, 'index.html'));
      if (shell === undefined) {
        return text(503, 'The app is not built yet. Run `npm run build` (npm start does it for you), then reload.');
      }
      const segments = urlPath.split('/').filter((segment) => segment !== '');
      // Dot files and parent references never leave the folder or reveal what is beside the app.
      const hidden = segments.some((segment) => segment.startsWith('.'));
      const target = resolve(root, ...segments);
      if (!hidden && target.startsWith(root + sep)) {
        const file = await fileAt(target);
        if (file !== undefined) {
          return serve(request, file, urlPath, CONTENT_TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream');
        }
      }
      const last = segments.at(-1) ?? '';
      if (extname(last) === '') return serve(request, shell, '/index.html', CONTENT_TYPES['.html']!);
      return text(404, 'Not found.');
    },
  };
}
