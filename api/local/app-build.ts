// Whether the built app (web/dist) is missing or older than its sources, so `npm start` builds
// only when it must.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type AppBuildState = { state: 'fresh' } | { state: 'missing' } | { state: 'stale'; newestSource: string };

function newestIn(path: string): { path: string; mtimeMs: number } | undefined {
  if (!existsSync(path)) return undefined;
  const info = statSync(path);
  if (!info.isDirectory()) return { path, mtimeMs: info.mtimeMs };
  let newest: { path: string; mtimeMs: number } | undefined;
  for (const entry of readdirSync(path)) {
    const candidate = newestIn(join(path, entry));
    if (candidate !== undefined && (newest === undefined || candidate.mtimeMs > newest.mtimeMs)) newest = candidate;
  }
  return newest;
}

/** `webDir` holds src/, public/, index.html, vite.config.ts and the build output dist/. */
export function appBuildState(webDir: string): AppBuildState {
  const built = join(webDir, 'dist', 'index.html');
  if (!existsSync(built)) return { state: 'missing' };
  const builtAt = statSync(built).mtimeMs;
  for (const source of ['src', 'public', 'index.html', 'vite.config.ts']) {
    const newest = newestIn(join(webDir, source));
    if (newest !== undefined && newest.mtimeMs > builtAt) return { state: 'stale', newestSource: newest.path };
  }
  return { state: 'fresh' };
}
