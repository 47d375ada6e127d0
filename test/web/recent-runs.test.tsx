// "Recent runs" under the form, as a user meets it: the runs come from the API (so they survive a
// reload and a new sign-in), each with its status, counts, report links and 'Run again', which
// fills the form with that run's values, never the password, and selects its modules once loaded.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend, json, type RecordedRequest } from './support/fake-backend';
import { fillForm } from './support/fill-form';
import { TOC } from './support/fixtures';
import { renderSignedInApp } from './support/render-app';
import { seedSignedInUser, type SeededSession } from './support/session';

let session: SeededSession;

beforeEach(() => {
  localStorage.clear();
  session = seedSignedInUser();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  localStorage.clear();
});

const SUCCEEDED = {
  taskArn: 'job-2',
  filename: 'acme-college-ou6606-20260502t100000z-abcdefghijklmnop',
  status: 'SUCCEEDED',
  client: 'Acme College',
  siteUrl: 'https://school.brightspace.com',
  orgUnitId: 6606,
  courseName: 'Biology 101',
  modules: [301],
  createdAt: '2026-05-02T10:00:00.000Z',
  startedAt: '2026-05-02T10:00:01.000Z',
  finishedAt: '2026-05-02T10:03:00.000Z',
  summary: { findings: { error: 3, warning: 1, info: 2, review: 0 }, topics: 9, scanned: 8, notScanned: 1, documents: 0, links: 40, comparison: { new: 1, fixed: 2, dismissed: 1 } },
  outputUrl: 'https://ctpo.example.ca/reports/k1.1900000000.abc/',
};
const FAILED = {
  taskArn: 'job-1',
  filename: 'other-ou7707-20260501t100000z-abcdefghijklmnop',
  status: 'FAILED',
  client: 'Other School',
  siteUrl: 'https://other.brightspace.com',
  orgUnitId: 7707,
  modules: [1],
  createdAt: '2026-05-01T10:00:00.000Z',
  reason: 'Brightspace did not accept this user name and password. Check them and try again.',
};

function backend(pages: Record<string, unknown> = { '': { jobs: [SUCCEEDED, FAILED] } }) {
  return new FakeBackend()
    .on('GET', '/api/jobs', (request: RecordedRequest) => json(pages[request.url.searchParams.get('cursor') ?? ''] ?? { jobs: [] }))
    .on('POST', '/api/toc', () => json(TOC))
    .on('POST', '/api/run-tests', () => json({ message: 'Test run started.', taskArn: 'job-3', filename: 'acme-college-ou6606-x' }, 202))
    .on('GET', '/api/job-status/*', () => json({ status: 'PROVISIONING' }))
    .install();
}

const runsRegion = () => screen.getByRole('region', { name: 'Recent runs' });
const runItem = (name: RegExp) => within(runsRegion()).getByRole('article', { name });

describe('Recent runs', () => {
  it('lists the user’s runs from the API, newest first, with status, counts, changes and report links', async () => {
    const api = backend();
    await renderSignedInApp();
    const succeeded = await waitFor(() => runItem(/Acme College/));
    const [request] = api.requestsTo('/api/jobs');
    expect(request?.headers.get('Authorization')).toBe(`Bearer ${session.accessToken}`);
    expect(request?.url.searchParams.get('limit')).toBe('10');

    expect(within(succeeded).getByRole('heading', { name: 'Acme College Biology 101 (Org Unit ID 6606)' })).toBeInTheDocument();
    expect(succeeded).toHaveTextContent('Succeeded');
    expect(succeeded).toHaveTextContent('school.brightspace.com');
    expect(succeeded).toHaveTextContent('3 errors, 1 warning, 2 notes.');
    expect(succeeded).toHaveTextContent('Since the last run: 1 new, 2 fixed, 1 dismissed.');
    const report = within(succeeded).getByRole('link', { name: /View report/ });
    expect(report).toHaveAttribute('href', `${SUCCEEDED.outputUrl}${SUCCEEDED.filename}.html`);
    expect(report).toHaveAttribute('target', '_blank');
    expect(within(succeeded).getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', `${SUCCEEDED.outputUrl}${SUCCEEDED.filename}.csv`);

    const failed = runItem(/Other School/);
    expect(failed).toHaveTextContent('Failed');
    expect(failed).toHaveTextContent('Org Unit ID 7707');
    expect(failed).toHaveTextContent('Brightspace did not accept this user name and password.');
    expect(within(failed).queryByRole('link')).not.toBeInTheDocument();
    expect(within(failed).queryByRole('button', { name: 'Findings' })).not.toBeInTheDocument();

    const items = within(runsRegion()).getAllByRole('article');
    expect(items.map((item) => item.getAttribute('aria-labelledby') && within(item).getByRole('heading').textContent)).toEqual([
      'Acme College Biology 101 (Org Unit ID 6606)',
      'Other School Org Unit ID 7707',
    ]);
  });

  it('says so when there are no runs yet, and offers a retry when the list cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    new FakeBackend().on('GET', '/api/jobs', () => (fail ? json({ message: 'down', code: 'internal' }, 500) : json({ jobs: [] }))).install();
    const { user } = await renderSignedInApp();
    const alert = await within(runsRegion()).findByRole('alert');
    expect(alert).toHaveTextContent('Your recent runs could not be loaded.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(runsRegion()).findByText('No runs yet. The runs you start appear here, newest first.')).toBeInTheDocument();
  });

  it('shows older runs on request, with the cursor of the page before', async () => {
    const api = backend({ '': { jobs: [SUCCEEDED], nextCursor: 'c1' }, c1: { jobs: [FAILED] } });
    const { user } = await renderSignedInApp();
    await waitFor(() => runItem(/Acme College/));
    expect(within(runsRegion()).queryByRole('article', { name: /Other School/ })).not.toBeInTheDocument();
    await user.click(within(runsRegion()).getByRole('button', { name: 'Show older runs' }));
    await waitFor(() => runItem(/Other School/));
    expect(api.requestsTo('/api/jobs').at(-1)?.url.searchParams.get('cursor')).toBe('c1');
    expect(within(runsRegion()).queryByRole('button', { name: 'Show older runs' })).not.toBeInTheDocument();
  });

  it('keeps the earlier runs reachable when a new run starts, and lists the new one', async () => {
    const listed = [SUCCEEDED];
    const api = new FakeBackend()
      .on('GET', '/api/jobs', () => json({ jobs: listed }))
      .on('POST', '/api/toc', () => json(TOC))
      .on('POST', '/api/run-tests', () => {
        listed.unshift({ ...SUCCEEDED, taskArn: 'job-3', status: 'PROVISIONING', client: 'New Client', createdAt: '2026-05-03T10:00:00.000Z' });
        return json({ message: 'Test run started.', taskArn: 'job-3', filename: 'new-client-ou6606-x' }, 202);
      })
      .on('GET', '/api/job-status/*', () => json({ status: 'PROVISIONING' }))
      .install();
    const { user } = await renderSignedInApp();
    await waitFor(() => runItem(/Acme College/));
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    await user.click(await screen.findByRole('button', { name: 'Run CTPO' }));
    await screen.findByRole('region', { name: 'Monitoring job' });
    await waitFor(() => runItem(/New Client/));
    expect(runItem(/New Client/)).toHaveTextContent('Starting');
    expect(within(runItem(/Acme College/)).getByRole('link', { name: /View report/ })).toBeInTheDocument();
    expect(api.requestsTo('/api/jobs').length).toBeGreaterThanOrEqual(2);
  });

  it('never shows a report link that is not a web address', async () => {
    backend({ '': { jobs: [{ ...SUCCEEDED, outputUrl: 'javascript:alert(1)//' }] } });
    await renderSignedInApp();
    const item = await waitFor(() => runItem(/Acme College/));
    expect(within(item).queryByRole('link')).not.toBeInTheDocument();
  });
});

describe('Run again', () => {
  it('fills the form with the run’s values but never a password, and selects the run’s modules once loaded', async () => {
    const api = backend();
    const { user } = await renderSignedInApp();
    await user.type(screen.getByLabelText('Brightspace Username'), 'qa.tester');
    await user.click(await waitFor(() => within(runItem(/Acme College/)).getByRole('button', { name: 'Run again' })));

    expect(screen.getByLabelText('Client Site URL')).toHaveValue('https://school.brightspace.com');
    expect(screen.getByLabelText('Org Unit ID')).toHaveValue('6606');
    expect(screen.getByLabelText('Client')).toHaveValue('Acme College');
    expect(screen.getByLabelText('Brightspace Username')).toHaveValue('qa.tester');
    expect(screen.getByLabelText('Brightspace Password')).toHaveValue('');
    expect(screen.getByLabelText('Brightspace Password')).toHaveFocus();
    expect(screen.getByText(/^Filled in from the run for Acme College of .+\. Enter the Brightspace password, then choose modules/)).toHaveAttribute('role', 'status');

    await user.type(screen.getByLabelText('Brightspace Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    const modules = await screen.findByRole('group', { name: 'Modules' });
    const checked = within(modules)
      .getAllByRole('checkbox')
      .filter((box) => (box as HTMLInputElement).checked)
      .map((box) => box.closest('label')?.textContent);
    expect(checked).toEqual(['Unit 1: Foundations']);

    await user.click(screen.getByRole('button', { name: 'Run CTPO' }));
    await waitFor(() => expect(api.requestsTo('/api/run-tests')).toHaveLength(1));
    expect(api.requestsTo('/api/run-tests')[0]?.body).toMatchObject({ CLIENT_URL: 'https://school.brightspace.com', ORG_UNIT_ID: '6606', CLIENT_NAME: 'Acme College', MODULES: [301] });
  });

  it('selects what a module held: a run of a module tested everything nested in it', async () => {
    backend({ '': { jobs: [{ ...SUCCEEDED, modules: [102] }] } });
    const { user } = await renderSignedInApp();
    await user.click(await waitFor(() => within(runItem(/Acme College/)).getByRole('button', { name: 'Run again' })));
    await fillForm(user, { 'Brightspace Username': 'qa.tester', 'Brightspace Password': 'pw' });
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    const modules = await screen.findByRole('group', { name: 'Modules' });
    const box = (name: string) => within(modules).getByRole('checkbox', { name }) as HTMLInputElement;
    expect(box('Course outline').checked).toBe(true);
    expect(box('Weekly schedule').checked).toBe(true);
    expect(box('Unit 1: Foundations').checked).toBe(false);
  });

  it('selects every module when none of the run’s modules is in the course any more', async () => {
    backend({ '': { jobs: [{ ...SUCCEEDED, modules: [999] }] } });
    const { user } = await renderSignedInApp();
    await user.click(await waitFor(() => within(runItem(/Acme College/)).getByRole('button', { name: 'Run again' })));
    await fillForm(user, { 'Brightspace Username': 'qa.tester', 'Brightspace Password': 'pw' });
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    const modules = await screen.findByRole('group', { name: 'Modules' });
    expect(within(modules).getAllByRole('checkbox').every((box) => (box as HTMLInputElement).checked)).toBe(true);
  });
});
