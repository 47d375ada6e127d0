// The runner image cannot be built here (no Docker), so its Dockerfile is checked as text for what
// the runs depend on: Debian's Chromium and the fonts for the browser checks, the variable that
// points the engine at it, an unprivileged user and no download at build or run time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumRefreshWeek, RUNNER_DOCKERFILE } from '../../infra/lib/qa-api/runner.ts';
import { REPO_ROOT } from './support.ts';

const dockerfile = readFileSync(join(REPO_ROOT, RUNNER_DOCKERFILE), 'utf8');
/** Instructions with their continuation lines joined and comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
const stages = instructions.reduce<string[][]>((all, line) => (line.startsWith('FROM ') ? [...all, [line]] : (all.at(-1)!.push(line), all)), []);
const runtime = stages.at(-1)!;

describe('the runner image', () => {
  it('runs on Node.js 24 on Debian bookworm, whose chromium package the browser checks use', () => {
    for (const stage of stages) expect(stage[0]).toMatch(/^FROM node:24-bookworm-slim\b/);
  });

  it('installs Chromium and fonts for every script a course may use, from Debian, in the runtime stage', () => {
    const install = runtime.find((line) => line.startsWith('RUN ') && line.includes('apt-get install'));
    expect(install).toBeDefined();
    const packages = install!.split(/\s+/);
    for (const name of ['chromium', 'fonts-liberation', 'fonts-noto-core', 'fonts-noto-cjk', 'fonts-noto-color-emoji']) expect(packages).toContain(name);
    expect(install).toContain('--no-install-recommends');
    expect(install).toMatch(/apt-get update .*&& apt-get install .*&& rm -rf \/var\/lib\/apt\/lists\/\*/);
  });

  it('takes Chromium\'s current security release at each build: nothing pinned, and the week as a build arg that rebuilds the layer', () => {
    const install = runtime.find((line) => line.startsWith('RUN ') && line.includes('apt-get install'))!;
    expect(install).not.toMatch(/chromium[=:]/);
    expect(install).toMatch(/\$\{CHROMIUM_REFRESH\}.*apt-get update .*&& apt-get upgrade /);
    expect(runtime.indexOf('ARG CHROMIUM_REFRESH=unset')).toBeGreaterThan(-1);
    expect(runtime.indexOf('ARG CHROMIUM_REFRESH=unset')).toBeLessThan(runtime.indexOf(install));
    expect(chromiumRefreshWeek(new Date('2026-11-28T12:00:00Z'))).toBe('2026-W48');
    expect(chromiumRefreshWeek(new Date('2027-01-03T12:00:00Z'))).toBe('2026-W53');
    expect(chromiumRefreshWeek(new Date('2027-01-04T00:00:00Z'))).toBe('2027-W01');
  });

  it('points the engine at that Chromium and gives it a writable home on the /tmp volume', () => {
    const env = runtime.filter((line) => line.startsWith('ENV ')).join(' ');
    expect(env).toMatch(/CTPO_CHROMIUM=\/usr\/bin\/chromium\b/);
    expect(env).toMatch(/HOME=\/tmp\b/);
  });

  it('downloads nothing itself and runs the task as the unprivileged user', () => {
    expect(dockerfile).not.toMatch(/\b(curl|wget|ADD https?:)/);
    expect(dockerfile).not.toMatch(/playwright install|puppeteer/);
    const userAt = runtime.findIndex((line) => line === 'USER node');
    expect(userAt).toBeGreaterThan(0);
    expect(runtime.slice(userAt + 1)).toEqual(['ENTRYPOINT ["node", "api/aws/task-main.ts"]']);
  });
});
