import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUDGET_BYTES, initialScriptPaths, measureInitialJs } from '../../scripts/size.ts';

let dist: string;

beforeEach(() => {
  dist = mkdtempSync(join(tmpdir(), 'ctpo-size-'));
  mkdirSync(join(dist, 'assets'));
});
afterEach(() => {
  rmSync(dist, { recursive: true, force: true });
});

const INDEX = `<!doctype html><html><head>
  <script type="module" crossorigin src="/assets/index-abc.js"></script>
  <link rel="modulepreload" crossorigin href="/assets/vendor-def.js">
  <link rel="stylesheet" href="/assets/index.css">
  <script async src="https://analytics.example.com/a.js"></script>
</head><body><div id="root"></div></body></html>`;

describe('initialScriptPaths', () => {
  it('takes the entry scripts and the modulepreload links, not styles or other sites', () => {
    expect(initialScriptPaths(INDEX)).toEqual(['assets/index-abc.js', 'assets/vendor-def.js']);
  });
});

describe('measureInitialJs', () => {
  it('sums the gzip size of the initial scripts only, leaving lazy chunks out', () => {
    const entry = 'console.log("entry");'.repeat(200);
    const vendor = 'export const v = 1;'.repeat(300);
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets/index-abc.js'), entry);
    writeFileSync(join(dist, 'assets/vendor-def.js'), vendor);
    writeFileSync(join(dist, 'assets/lazy-ghi.js'), 'x'.repeat(500_000));

    const report = measureInitialJs(dist);
    expect(report.files.map((file) => file.file)).toEqual(['assets/index-abc.js', 'assets/vendor-def.js']);
    expect(report.totalBytes).toBe(entry.length + vendor.length);
    expect(report.totalGzipBytes).toBe(gzipSync(entry, { level: 9 }).length + gzipSync(vendor, { level: 9 }).length);
  });
});

describe('npm run size', () => {
  const run = () => spawnSync(process.execPath, ['scripts/size.ts', '--dist', dist], { encoding: 'utf8' });

  it('prints the figure and passes under the budget', () => {
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets/index-abc.js'), 'let a = 1;');
    writeFileSync(join(dist, 'assets/vendor-def.js'), 'let b = 2;');
    const result = run();
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/total\s+0\.02 KiB\s+0\.\d\d KiB gzip/);
    expect(result.stdout).toContain('budget 150.00 KiB gzip');
  });

  it('fails above 150 KiB gzip', () => {
    writeFileSync(join(dist, 'index.html'), INDEX);
    // Random bytes do not compress: just over the budget stays over it.
    const incompressible = Buffer.from(Array.from({ length: BUDGET_BYTES + 4096 }, () => Math.floor(Math.random() * 256)));
    writeFileSync(join(dist, 'assets/index-abc.js'), incompressible);
    writeFileSync(join(dist, 'assets/vendor-def.js'), '');
    const result = run();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Over budget');
  });
});
