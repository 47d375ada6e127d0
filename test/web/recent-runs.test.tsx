// "Recent runs" under the form, as a user meets it: the runs come from the API (so they survive a
// reload and a new sign-in), each with what it covered, its language, when it ran in the reader's
// time zone, its status, counts, report links and, once it has ended, 'Run again', which fills the
// form with that run's values and user name, never the password, and selects its modules once loaded.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend, json, type RecordedRequest } from './support/fake-backend';
import { fillForm } from './support/fill-form';
import { TOC } from './support/fixtures';
import { renderSignedInApp } from './support/render-app';
import { seedMonitoredJob, seedSignedInUser, type SeededSession } from './support/session';

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
  scopes: ['quizzes', 'gradebook'],
  language: 'fr-CA',
  userName: 'qa.tester',
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

    // What the run covered and in which language, each under its name.
    const covered = (item: HTMLElement) =>
      within(item)
        .getAllByRole('term')
        .map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);
    expect(covered(succeeded)).toEqual(['Modules: 1 module', 'Course-wide items: Quizzes and Gradebook', 'Language: Français (Canada)']);

    const failed = runItem(/Other School/);
    expect(covered(failed)).toEqual(['Modules: 1 module', 'Course-wide items: None']);
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

  it('says how many findings are still open and what the comparison covered: some places, everything, or nothing', async () => {
    const comparison = (comparedOn: unknown) => ({ new: 2, open: 5, fixed: 0, dismissed: 1, previous: { startedAt: '2026-05-01T10:00:00.000Z', finishedAt: '2026-05-01T10:02:00.000Z' }, comparedOn });
    const runOf = (taskArn: string, client: string, comparedOn: unknown) => ({ ...SUCCEEDED, taskArn, client, summary: { ...SUCCEEDED.summary, comparison: comparison(comparedOn) } });
    backend({
      '': {
        jobs: [
          runOf('job-a', 'Some', { all: false, places: [{ module: 302, title: 'Unit 2: Water' }, { scope: 'gradebook' }], more: 0 }),
          runOf('job-b', 'Many', { all: false, places: [{ module: 301, title: 'Unit 1' }], more: 3 }),
          runOf('job-c', 'Everything', { all: true, places: [{ module: 301, title: 'Unit 1' }], more: 0 }),
          runOf('job-d', 'Nothing', { all: false, places: [], more: 0 }),
        ],
      },
    });
    await renderSignedInApp();
    const some = await waitFor(() => runItem(/^Some/));
    expect(some).toHaveTextContent('Since the last run: 2 new, 5 still open, 0 fixed, 1 dismissed.');
    expect(within(some).getByText(/^Compared on/)).toHaveTextContent('Compared on Unit 2: Water and Gradebook only.');
    expect(within(runItem(/^Many/)).getByText(/^Compared on/)).toHaveTextContent('Compared on Unit 1 and 3 more only.');
    expect(within(runItem(/^Everything/)).getByText(/^Compared on/)).toHaveTextContent('Compared on everything this run read.');
    expect(runItem(/^Nothing/)).toHaveTextContent('Nothing compared: this run read nothing the last one had read.');
  });

  it('does not repeat why the run the monitor shows failed: the monitor says it once', async () => {
    seedMonitoredJob('job-1', FAILED.filename);
    new FakeBackend()
      .on('GET', '/api/jobs', () => json({ jobs: [SUCCEEDED, FAILED] }))
      .on('GET', '/api/job-status/*', () => json({ status: 'FAILED', reason: FAILED.reason }))
      .install();
    await renderSignedInApp();
    const failed = await waitFor(() => runItem(/Other School/));
    expect(failed).toHaveTextContent('Failed');
    await waitFor(() => expect(screen.getAllByText(FAILED.reason)).toHaveLength(1));
    expect(within(failed).queryByText(FAILED.reason)).not.toBeInTheDocument();
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

describe('what a run covered', () => {
  const run = (fields: Record<string, unknown>) => ({ ...SUCCEEDED, ...fields });
  const modulesOf = async (fields: Record<string, unknown>) => {
    backend({ '': { jobs: [run(fields)] } });
    await renderSignedInApp();
    const item = await waitFor(() => runItem(/Acme College/));
    expect(within(item).getAllByRole('term')[0]).toHaveTextContent('Modules');
    return within(item).getAllByRole('definition')[0]?.textContent;
  };

  it('names the modules by the titles the user chose them by, and those left out', async () => {
    expect(await modulesOf({ modules: [1, 11, 2], excludeModules: [12], moduleTitles: { 1: 'Unit 1', 2: 'Unit 2', 12: 'Lab 1.2' } })).toBe('Unit 1 and Unit 2, without Lab 1.2');
  });

  it('counts them where the titles are not known', async () => {
    expect(await modulesOf({ modules: [1, 11, 2], excludeModules: [12, 13] })).toBe('3 modules, without 2 sub-modules');
  });

  it('says a run of course-wide items alone had no module, and all of them when it read them all', async () => {
    backend({ '': { jobs: [run({ modules: [], scopes: ['assignments', 'quizzes', 'discussions', 'announcements', 'overview', 'gradebook'] })] } });
    await renderSignedInApp();
    const item = await waitFor(() => runItem(/Acme College/));
    expect(within(item).getAllByRole('definition').map((value) => value.textContent)).toEqual(['None (course-wide items only)', 'All', 'Français (Canada)']);
  });

  it('shortens a long list of modules', async () => {
    const ids = Array.from({ length: 9 }, (_, index) => index + 1);
    expect(await modulesOf({ modules: ids, moduleTitles: Object.fromEntries(ids.map((id) => [id, `M${id}`])) })).toBe('M1, M2, M3, M4, M5, M6, and 3 more');
  });
});

describe('when a run ran', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = zone;
  });

  it('is said in the reader’s own time zone, named, with the date once', async () => {
    process.env.TZ = 'America/Toronto';
    backend();
    await renderSignedInApp();
    const item = await waitFor(() => runItem(/Acme College/));
    const time = item.querySelector('time');
    // 10:00 UTC is 6:00 in Toronto in May.
    expect(time).toHaveTextContent(/^May 2, 2026, 6:00\s*–\s*6:03\sAM EDT$/);
    expect(time).toHaveAttribute('dateTime', SUCCEEDED.startedAt);
  });
});

describe('Run again', () => {
  it('is offered only once a run has ended', async () => {
    backend({ '': { jobs: [{ ...SUCCEEDED, taskArn: 'job-9', client: 'Still Going', status: 'RUNNING', progress: { done: 1, total: 4 } }, SUCCEEDED, FAILED] } });
    await renderSignedInApp();
    await waitFor(() => runItem(/Still Going/));
    expect(within(runItem(/Still Going/)).queryByRole('button', { name: 'Run again' })).not.toBeInTheDocument();
    expect(within(runItem(/Acme College/)).getByRole('button', { name: 'Run again' })).toBeInTheDocument();
    expect(within(runItem(/Other School/)).getByRole('button', { name: 'Run again' })).toBeInTheDocument();
  });

  it('fills the form with the run’s values and user name, clears the password and waits there for it, and selects the run’s modules once loaded', async () => {
    const api = backend();
    const { user } = await renderSignedInApp();
    // Whatever was on screen before is replaced: another site's user name, a password.
    await user.type(screen.getByLabelText('Brightspace Username'), 'someone.else');
    await user.type(screen.getByLabelText('Brightspace Password'), 'their-secret');
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
    expect(api.requestsTo('/api/run-tests')[0]?.body).toMatchObject({
      USER_NAME: 'qa.tester',
      PASSWORD: 'pw',
      CLIENT_URL: 'https://school.brightspace.com',
      ORG_UNIT_ID: '6606',
      CLIENT_NAME: 'Acme College',
      MODULES: [301],
      SCOPES: ['quizzes', 'gradebook'],
    });
  });

  it('asks for the user name too when the run does not say it, and clears what was typed', async () => {
    backend({ '': { jobs: [FAILED] } });
    const { user } = await renderSignedInApp();
    await user.type(screen.getByLabelText('Brightspace Username'), 'someone.else');
    await user.click(await waitFor(() => within(runItem(/Other School/)).getByRole('button', { name: 'Run again' })));
    expect(screen.getByLabelText('Brightspace Username')).toHaveValue('');
    expect(screen.getByLabelText('Brightspace Username')).toHaveFocus();
    expect(screen.getByText(/^Filled in from the run for Other School of .+\. Enter the Brightspace username and password, then choose modules/)).toHaveAttribute('role', 'status');
  });

  it('restores a module without the sub-modules the run left out, and a run of course-wide items alone', async () => {
    const toc = { Modules: [{ ModuleId: 1, Title: 'Unit 1', Topics: [{ TopicId: 10 }], Modules: [{ ModuleId: 11, Title: '1.1', Modules: [] }, { ModuleId: 12, Title: '1.2', Modules: [] }] }, { ModuleId: 2, Title: 'Unit 2', Modules: [] }] };
    const api = backend({ '': { jobs: [{ ...SUCCEEDED, modules: [1, 11], excludeModules: [12], scopes: [] }, { ...FAILED, modules: [], scopes: ['gradebook'], userName: 'qa.tester' }] } });
    api.on('POST', '/api/toc', () => json(toc));
    const { user } = await renderSignedInApp();
    const box = (name: string) => within(screen.getByRole('group', { name: 'Modules' })).getByRole('checkbox', { name });

    await user.click(await waitFor(() => within(runItem(/Acme College/)).getByRole('button', { name: 'Run again' })));
    await user.type(screen.getByLabelText('Brightspace Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    await screen.findByRole('group', { name: 'Modules' });
    expect(box('Unit 1')).toBePartiallyChecked();
    expect(box('1.1')).toBeChecked();
    expect(box('1.2')).not.toBeChecked();
    expect(box('Unit 2')).not.toBeChecked();

    await user.click(within(runItem(/Other School/)).getByRole('button', { name: 'Run again' }));
    await user.type(screen.getByLabelText('Brightspace Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    await screen.findByRole('group', { name: 'Modules' });
    expect(within(screen.getByRole('group', { name: 'Modules' })).getAllByRole('checkbox').some((item) => (item as HTMLInputElement).checked)).toBe(false);
    const scopes = within(screen.getByRole('group', { name: 'Course-wide items' }));
    expect(scopes.getAllByRole('checkbox', { checked: true }).map((item) => item.closest('label')?.textContent)).toEqual(['Gradebook']);
    expect(screen.getByRole('button', { name: 'Run CTPO' })).toBeEnabled();
  });

  it('selects what a module held: a run of a module tested everything nested in it', async () => {
    backend({ '': { jobs: [{ ...SUCCEEDED, modules: [102] }] } });
    const { user } = await renderSignedInApp();
    await user.click(await waitFor(() => within(runItem(/Acme College/)).getByRole('button', { name: 'Run again' })));
    await fillForm(user, { 'Brightspace Password': 'pw' });
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
    await fillForm(user, { 'Brightspace Password': 'pw' });
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    const modules = await screen.findByRole('group', { name: 'Modules' });
    expect(within(modules).getAllByRole('checkbox').every((box) => (box as HTMLInputElement).checked)).toBe(true);
  });
});
