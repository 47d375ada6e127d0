// The production build, built for real: what `npm run build` makes is what CloudFront serves, so it
// must carry no source maps (they would publish the app's sources) and no reference to one.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';

const CONFIG = join(import.meta.dirname, '..', '..', 'web', 'vite.config.ts');

describe('the production build of the app', () => {
  let outDir: string;
  let files: string[];

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'ctpo-build-'));
    await build({ configFile: CONFIG, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
    files = readdirSync(outDir, { recursive: true, encoding: 'utf8' });
  }, 300_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('is built', () => {
    expect(files).toContain('index.html');
    expect(files.some((file) => /^assets[/\\]index-[\w-]+\.js$/.test(file))).toBe(true);
  });

  it('publishes no source maps and points to none', () => {
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    for (const file of files.filter((name) => /\.(js|css)$/.test(name))) {
      expect(readFileSync(join(outDir, file), 'utf8'), file).not.toMatch(/sourceMappingURL/);
    }
  });
});
