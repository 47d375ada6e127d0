// What judges a page, as a verdict's digest names it: the browser's build is one of the judges, read
// without starting the browser, so a Chromium update judges every page again.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumBuild } from '../../../api/a11y/open-a11y-runner.ts';
import { runJudges } from '../../../api/engine/run-verdicts.ts';
import type { CourseTestInput } from '../../../api/engine/types.ts';

const folder = mkdtempSync(join(tmpdir(), 'ctpo-build-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A stand-in browser that only says its build, as `chromium --version` does. */
function fakeBrowser(name: string, says: string): string {
  const path = join(folder, name);
  writeFileSync(path, `#!/bin/sh\n[ "$1" = "--version" ] && echo "${says}" && exit 0\nexit 1\n`);
  chmodSync(path, 0o755);
  return path;
}

const input = { siteUrl: 'https://school.example.com', username: 'u', password: 'p', orgUnitId: 1, modules: 'all', client: 'C', allowPrivateTargets: false, options: { enhancedContrast: false } } satisfies CourseTestInput;

describe('the judges of a verdict', () => {
  it("reads each browser's build from its --version, without starting it", () => {
    expect(chromiumBuild(fakeBrowser('old', 'Chromium 155.0.1 built on Debian'))).toBe('Chromium 155.0.1 built on Debian');
    expect(chromiumBuild(fakeBrowser('new', 'Chromium 156.0.2 built on Debian'))).toBe('Chromium 156.0.2 built on Debian');
  });

  it('stands in the file for a browser that cannot say its build', () => {
    const mute = fakeBrowser('mute', '');
    expect(chromiumBuild(mute)).toMatch(new RegExp(`^${mute} \\d+ `));
  });

  it('names the browser build among what judges a page, and not among what judges a document', () => {
    const limits = { maxBytes: 1 };
    const before = runJudges(input, 'browser', 'Chromium 155.0.1', limits);
    const after = runJudges(input, 'browser', 'Chromium 156.0.2', limits);
    expect(after.pageJudges).not.toBe(before.pageJudges);
    expect(after.documentJudges).toBe(before.documentJudges);
    expect(runJudges(input, 'browser', 'Chromium 155.0.1', limits).pageJudges).toBe(before.pageJudges);
  });
});
