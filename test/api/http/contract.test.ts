// The wire contract (api/http/contract.ts) is defined once: the words of the domain and of the wire
// agree (the expectTypeOf lines are checked by `npm run typecheck`), and it loads without Node or a
// message catalogue, as the app's bundle loads it. The API's answers reading back unchanged
// through it is checked where the routes are (api.test.ts, history-routes.test.ts).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import * as brightspaceScopes from '../../../api/brightspace/course-scopes.ts';
import type { CourseScope } from '../../../api/brightspace/course-scopes.ts';
import * as progress from '../../../api/engine/progress.ts';
import * as contract from '../../../api/http/contract.ts';
import type { RunTestsInput } from '../../../api/http/validate-request.ts';
import * as languages from '../../../api/i18n/languages.ts';
import type { Language } from '../../../api/i18n/languages.ts';
import * as jobStatus from '../../../api/jobs/job-status.ts';
import type { JobProgress, JobStatus } from '../../../api/jobs/job-status.ts';
import type { JobSummary } from '../../../api/report/summary.ts';

const CONTRACT = fileURLToPath(new URL('../../../api/http/contract.ts', import.meta.url));

/** The files a module loads, itself included, and the packages they import, following our own files. */
function reach(file: string, found = { files: new Set<string>(), packages: new Set<string>() }) {
  if (found.files.has(file)) return found;
  found.files.add(file);
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'/gms)) {
    if (specifier!.startsWith('.')) reach(resolve(dirname(file), specifier!), found);
    else found.packages.add(specifier!);
  }
  return found;
}

describe('the wire contract', () => {
  it('speaks the words their owners define', () => {
    expectTypeOf<z.output<typeof contract.jobSummary>>().toEqualTypeOf<JobSummary>();
    expectTypeOf<z.output<typeof contract.jobProgress>>().toEqualTypeOf<JobProgress>();
    expectTypeOf<JobStatus>().toExtend<contract.JobStatusAnswer['status']>();
    expectTypeOf<JobSummary>().toExtend<NonNullable<contract.JobListItem['summary']>>();
    expectTypeOf<NonNullable<z.output<typeof contract.runTestsRequest>['SCOPES']>>().toEqualTypeOf<CourseScope[]>();
    expectTypeOf<NonNullable<z.output<typeof contract.runTestsRequest>['LANGUAGE']>>().toEqualTypeOf<Language>();
    expectTypeOf<z.output<typeof contract.runTestsRequest>['MODULES']>().toEqualTypeOf<RunTestsInput['modules']>();
    // The lists themselves are the owners', not copies.
    expect(contract.JOB_STATUSES).toBe(jobStatus.JOB_STATUSES);
    expect(contract.RUN_PHASES).toBe(progress.RUN_PHASES);
    expect(contract.COURSE_SCOPES).toBe(brightspaceScopes.COURSE_SCOPES);
    expect(contract.LANGUAGES).toBe(languages.LANGUAGES);
  });

  it('takes "check everything again" as an optional FULL, true or false, and nothing else', () => {
    const request = { USER_NAME: 'qa', PASSWORD: 'pw', CLIENT_URL: 'https://acme.brightspace.com', ORG_UNIT_ID: 6606, CLIENT_NAME: 'Acme', MODULES: [1] };
    for (const full of [true, false, null, undefined]) expect(contract.runTestsRequest.safeParse({ ...request, FULL: full }).success).toBe(true);
    for (const full of ['true', 1, 'yes', {}]) expect(contract.runTestsRequest.safeParse({ ...request, FULL: full }).success).toBe(false);
    expect(contract.runTestsRequest.parse({ ...request, FULL: true }).FULL).toBe(true);
    expectTypeOf<z.input<typeof contract.runTestsRequest>['FULL']>().toEqualTypeOf<boolean | null | undefined>();
  });

  it('loads without Node, a message catalogue or the engine’s machinery, so the app can bundle it', () => {
    const { files, packages } = reach(CONTRACT);
    expect([...files].map((file) => file.slice(file.lastIndexOf('/api/') + 1)).sort()).toEqual([
      'api/brightspace/course-scopes.ts',
      // The one reader of Brightspace addresses, which imports nothing: the app reads a pasted course address with it.
      'api/brightspace/item-urls.ts',
      'api/engine/progress.ts',
      'api/engine/run-input-rules.ts',
      'api/http/contract.ts',
      // The protocol routes' shapes, and the protocol's own schema (zod/mini only).
      'api/http/protocol-contract.ts',
      'api/i18n/languages.ts',
      'api/jobs/job-status.ts',
      'api/protocol/protocol-schema.ts',
    ]);
    expect(packages).toEqual(new Set(['zod/mini']));
  });

  it('reads an answer the tolerant way: what has the expected shape is kept, the rest is left out', () => {
    expect(
      contract.jobStatusAnswer.parse({
        status: 'PAUSED',
        outputUrl: '',
        progress: { done: 50, total: 40, phase: 'later' },
        summary: { findings: { error: 1, warning: 2, info: 3 }, topics: 4, scanned: 4, notScanned: 0, links: 9, comparison: { new: 'x' } },
      }),
    ).toEqual({
      status: 'PAUSED',
      progress: { done: 40, total: 40 },
      summary: { findings: { error: 1, warning: 2, info: 3, review: 0 }, topics: 4, scanned: 4, notScanned: 0, documents: 0, links: 9 },
    });
    expect(contract.jobStatusAnswer.safeParse({ outputUrl: 'https://reports.example/' }).success).toBe(false);
    const run = { taskArn: 'job-1', filename: 'f', status: 'RUNNING', client: 'Acme', siteUrl: 'https://a.test', orgUnitId: 6606, modules: [1], createdAt: '2026-01-01T00:00:00Z' };
    expect(contract.jobsAnswer.parse({ jobs: [run, { ...run, orgUnitId: -1 }, 'x'], nextCursor: ' ' })).toEqual({ jobs: [run] });
    expect(contract.jobsAnswer.safeParse({ jobs: 'none' }).success).toBe(false);
  });
});
