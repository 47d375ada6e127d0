// `npm run size`: the gzip size of the JavaScript a browser must load before the app starts (the
// entry script and every chunk index.html preloads; lazy chunks excluded), against a budget.
// Builds first when web/dist is missing, or always with --build. Exits 1 above the budget.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';

export const BUDGET_BYTES = 150 * 1024;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface MeasuredFile {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface SizeReport {
  files: MeasuredFile[];
  totalBytes: number;
  totalGzipBytes: number;
}

/** The local scripts index.html loads at start: module entry scripts and modulepreload links. */
export function initialScriptPaths(html: string): string[] {
  const paths: string[] = [];
  const add = (reference: string | undefined) => {
    if (!reference || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(reference)) return;
    const path = posix.normalize(reference.split(/[?#]/)[0] ?? '').replace(/^\/+/, '');
    if (path && !paths.includes(path)) paths.push(path);
  };
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === 'script' && attributes.src) add(attributes.src);
      const rel = attributes.rel?.toLowerCase().split(/\s+/) ?? [];
      if (name === 'link' && rel.includes('modulepreload')) add(attributes.href);
    },
  });
  parser.write(html);
  parser.end();
  return paths;
}

export function measureInitialJs(distDir: string): SizeReport {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const files = initialScriptPaths(html).map((file) => {
    const content = readFileSync(join(distDir, file));
    return { file, bytes: content.length, gzipBytes: gzipSync(content, { level: constants.Z_BEST_COMPRESSION }).length };
  });
  return {
    files,
    totalBytes: files.reduce((sum, file) => sum + file.bytes, 0),
    totalGzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
  };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;

export function formatReport(report: SizeReport, budget = BUDGET_BYTES): string {
  const width = Math.max(5, ...report.files.map((file) => file.file.length));
  const row = (name: string, bytes: number, gzipBytes: number) =>
    `  ${name.padEnd(width)}  ${kib(bytes).padStart(12)}  ${kib(gzipBytes).padStart(12)} gzip`;
  return [
    'Initial JavaScript of the production build (gzip level 9):',
    ...report.files.map((file) => row(file.file, file.bytes, file.gzipBytes)),
    row('total', report.totalBytes, report.totalGzipBytes),
    `  budget ${kib(budget)} gzip: ${((report.totalGzipBytes / budget) * 100).toFixed(1)}% used`,
  ].join('\n');
}

function main(args: string[]): number {
  const distIndex = args.indexOf('--dist');
  const distDir = distIndex >= 0 && args[distIndex + 1] ? resolve(args[distIndex + 1] ?? '') : join(ROOT, 'web', 'dist');
  if (args.includes('--build') || !existsSync(join(distDir, 'index.html'))) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
    if (build.status !== 0) {
      console.error('The build failed; nothing to measure.');
      return 2;
    }
  }
  if (!existsSync(join(distDir, 'index.html'))) {
    console.error(`${join(distDir, 'index.html')} does not exist; run npm run build.`);
    return 2;
  }
  const report = measureInitialJs(distDir);
  if (report.files.length === 0) {
    console.error('index.html loads no local script: is this a Vite build?');
    return 2;
  }
  console.log(formatReport(report));
  if (report.totalGzipBytes > BUDGET_BYTES) {
    console.error(`Over budget by ${kib(report.totalGzipBytes - BUDGET_BYTES)}: keep imports narrow or load more lazily.`);
    return 1;
  }
  return 0;
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));
