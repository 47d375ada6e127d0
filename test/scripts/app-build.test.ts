import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appBuildState } from '../../api/local/app-build.ts';

describe('whether npm start must build the app', () => {
  let web: string;
  const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);

  beforeEach(() => {
    web = mkdtempSync(join(tmpdir(), 'ctpo-web-'));
    mkdirSync(join(web, 'src', 'features'), { recursive: true });
    writeFileSync(join(web, 'src', 'features', 'form.tsx'), 'export {}');
    writeFileSync(join(web, 'index.html'), '<div id="root"></div>');
    at(join(web, 'src', 'features', 'form.tsx'), 1000);
    at(join(web, 'index.html'), 1000);
  });
  afterEach(() => rmSync(web, { recursive: true, force: true }));

  it('builds when web/dist is missing', () => {
    expect(appBuildState(web)).toEqual({ state: 'missing' });
  });

  it('builds when a source file is newer than the build, and not otherwise', () => {
    mkdirSync(join(web, 'dist'));
    writeFileSync(join(web, 'dist', 'index.html'), 'built');
    at(join(web, 'dist', 'index.html'), 2000);
    expect(appBuildState(web)).toEqual({ state: 'fresh' });
    at(join(web, 'src', 'features', 'form.tsx'), 3000);
    expect(appBuildState(web)).toEqual({ state: 'stale', newestSource: join(web, 'src', 'features', 'form.tsx') });
  });
});
