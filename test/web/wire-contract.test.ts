// The app and the API share one wire contract: '@contract' is the API's own module
// (api/http/contract.ts), every call of a feature reads its answer with it, and no copy of the
// contract's words is left in the app to drift.
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as shared from '@contract';
import * as api from '../../api/http/contract.ts';
import type { JobStatusReport } from '@/features/job-monitor/api/get-job-status';
import type { RecentRun } from '@/features/run-history/api/list-runs';
import type { Dismissal } from '@/features/findings/api/dismissals';

const featureCalls = import.meta.glob<string>('../../web/src/features/*/api/*.ts', { query: '?raw', import: 'default', eager: true });
const appSources = import.meta.glob<string>(['../../web/src/**/*.{ts,tsx}'], { query: '?raw', import: 'default', eager: true });

describe('the wire contract in the app', () => {
  it('is the module the API validates with, not a copy', () => {
    expect(shared.jobStatusAnswer).toBe(api.jobStatusAnswer);
    expect(shared.runTestsRequest).toBe(api.runTestsRequest);
    expectTypeOf<JobStatusReport>().toEqualTypeOf<api.JobStatusAnswer>();
    expectTypeOf<RecentRun>().toEqualTypeOf<api.JobListItem>();
    expectTypeOf<Dismissal>().toEqualTypeOf<api.DismissalItem>();
  });

  it('reads every answer of every feature', () => {
    expect(Object.keys(featureCalls).length).toBeGreaterThanOrEqual(6);
    for (const [file, source] of Object.entries(featureCalls)) expect(source, file).toMatch(/from '@contract';/);
  });

  it('keeps no copy of the contract’s words, nor a hand-written JSON guard', () => {
    expect(Object.keys(appSources).length).toBeGreaterThan(40);
    for (const [file, source] of Object.entries(appSources)) {
      expect(source, file).not.toMatch(/'DEPROVISIONING'|'sign-in', 'contents'|'announcements', 'overview'/);
      expect(source, file).not.toMatch(/\bisRecord\b|typeof \w+ === 'object' && \w+ !== null/);
    }
  });
});
