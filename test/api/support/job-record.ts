// A job record as the API writes it, for the job store, runner and task tests.
import type { JobRecord } from '../../../api/jobs/types.ts';

export function aJob(id: string, overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    id,
    owner: 'user-a',
    status: 'PROVISIONING',
    client: 'Acme College',
    siteUrl: 'https://acme.brightspace.com',
    orgUnitId: 6606,
    modules: [1, 2, 3],
    filename: `acme-college-ou6606-${id}`,
    createdAt: '2026-05-01T10:00:00.000Z',
    updatedAt: '2026-05-01T10:00:00.000Z',
    ...overrides,
  };
}
