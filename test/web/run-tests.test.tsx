import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, FakeBackend, json, type Handler } from './support/fake-backend';
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

const STARTED = { message: 'Test run queued.', taskArn: 'job-42', filename: 'acme-6606-20250101-a1b2' };

function backend(runTests: Handler = () => json(STARTED, 202)) {
  return new FakeBackend()
    .on('POST', '/api/toc', () => json(TOC))
    .on('POST', '/api/run-tests', runTests)
    .on('GET', '/api/job-status/*', () => json({ status: 'PROVISIONING' }))
    .install();
}

async function readyToRun() {
  const rendered = await renderSignedInApp();
  await fillForm(rendered.user);
  await rendered.user.click(screen.getByRole('button', { name: 'Choose Modules' }));
  await screen.findByRole('group', { name: 'Modules' });
  return rendered;
}

const runButton = () => screen.getByRole('button', { name: /^(Run CTPO|Running…)$/ });

describe('Run CTPO', () => {
  it('posts the fields, the selected module ids as numbers, the course-wide items and the language, with the bearer token and credentials', async () => {
    const api = backend();
    const { user } = await readyToRun();
    await user.click(screen.getByRole('checkbox', { name: 'Unit 1: Foundations' }));
    await user.click(screen.getByRole('checkbox', { name: 'Quizzes' }));
    await user.click(runButton());

    await waitFor(() => expect(api.requestsTo('/api/run-tests')).toHaveLength(1));
    const [request] = api.requestsTo('/api/run-tests');
    expect(request?.url.href).toBe('https://api.example.ca/api/run-tests');
    expect(request?.method).toBe('POST');
    expect(request?.headers.get('Authorization')).toBe(`Bearer ${session.accessToken}`);
    expect(request?.headers.get('Accept-Language')).toBe('en');
    expect(request?.credentials).toBe('include');
    expect(request?.body).toEqual({
      USER_NAME: 'qa.tester',
      PASSWORD: ' s3cret pass ',
      CLIENT_URL: 'https://school.brightspace.com',
      ORG_UNIT_ID: '6606',
      CLIENT_NAME: 'Acme College',
      MODULES: [101, 102, 103],
      SCOPES: ['assignments', 'discussions', 'announcements', 'overview', 'gradebook'],
      // The outermost chosen module's title, for the user's Recent runs.
      MODULE_TITLES: { 101: 'Welcome' },
      LANGUAGE: 'en',
    });
  });

  it('offers "Check everything again", off, with its hint, and sends FULL: true only when it is ticked', async () => {
    const api = backend();
    const { user } = await readyToRun();
    const full = screen.getByRole('checkbox', { name: 'Check everything again' });
    expect(full).not.toBeChecked();
    expect(full).toHaveAccessibleDescription('Ignore verdicts kept from earlier runs and check every item now.');

    await user.click(runButton());
    await waitFor(() => expect(api.requestsTo('/api/run-tests')).toHaveLength(1));
    expect(api.requestsTo('/api/run-tests')[0]?.body).not.toHaveProperty('FULL');

    await user.click(full);
    expect(full).toBeChecked();
    await waitFor(() => expect(runButton()).toBeEnabled());
    await user.click(runButton());
    await waitFor(() => expect(api.requestsTo('/api/run-tests')).toHaveLength(2));
    const [plain, again] = api.requestsTo('/api/run-tests');
    // The same run, but for the one choice.
    expect(again?.body).toEqual({ ...(plain?.body as object), FULL: true });

    // Unticked again, the next run reuses what it may.
    await user.click(full);
    await waitFor(() => expect(runButton()).toBeEnabled());
    await user.click(runButton());
    await waitFor(() => expect(api.requestsTo('/api/run-tests')).toHaveLength(3));
    expect(api.requestsTo('/api/run-tests')[2]?.body).not.toHaveProperty('FULL');
  });

  it('reads "Running…" and is disabled, with Choose Modules, until the server answers', async () => {
    const answer = deferred();
    backend(answer.handler);
    const { user } = await readyToRun();

    await user.click(runButton());
    expect(runButton()).toHaveTextContent('Running…');
    expect(runButton()).toBeDisabled();
    // An edit meanwhile does not load modules under the run's feet.
    await user.type(screen.getByLabelText('Client'), ' Inc');
    expect(screen.getByRole('button', { name: 'Choose Modules' })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Starting test run...');

    answer.resolve(json(STARTED, 202));
    await waitFor(() => expect(runButton()).toHaveTextContent('Run CTPO'));
    // The run used the values the modules were loaded with; the edit now asks for a new load first.
    expect(screen.getByRole('button', { name: 'Choose Modules' })).toBeEnabled();
    expect(runButton()).toBeDisabled();
  });

  it('shows the server’s message in a green banner and starts monitoring the job', async () => {
    const api = backend();
    const { user } = await readyToRun();
    await user.click(runButton());

    const banner = await screen.findByText('✅ Success: Test run queued.');
    expect(banner.closest('.status-banner')).toHaveClass('status-banner--success');
    const monitor = await screen.findByRole('region', { name: 'Monitoring job' });
    expect(within(monitor).getByText('job-42')).toBeInTheDocument();
    await waitFor(() => expect(api.requestsTo('/api/job-status/job-42')).toHaveLength(1));
    expect(JSON.parse(localStorage.getItem('ctpo.monitoredJob') ?? 'null')).toEqual({
      taskArn: 'job-42',
      filename: 'acme-6606-20250101-a1b2',
      // Whose course, so that the monitor names it after a reload before the server answers.
      client: 'Acme College',
      orgUnitId: '6606',
      owner: 'qa.user@example.ca',
    });
    expect(within(monitor).getByText('Acme College: Org Unit ID 6606')).toBeInTheDocument();
  });

  it('places the monitor between the banner and the fields', async () => {
    backend();
    const { user } = await readyToRun();
    await user.click(runButton());
    const monitor = await screen.findByRole('region', { name: 'Monitoring job' });
    const banner = screen.getByText('✅ Success: Test run queued.');
    const firstField = screen.getByLabelText('Brightspace Username');
    expect(banner.compareDocumentPosition(monitor) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(monitor.compareDocumentPosition(firstField) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('succeeds without a monitor when the server returns no task id', async () => {
    backend(() => json({ message: 'Accepted' }, 202));
    const { user } = await readyToRun();
    await user.click(runButton());
    expect(await screen.findByText('✅ Success: Accepted')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Monitoring job' })).not.toBeInTheDocument();
  });

  it('shows a red error banner with the server’s reason when the run is refused', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    backend(() => json({ message: 'You already have 3 runs in progress; wait for one to finish.', code: 'too_many_runs' }, 429));
    const { user } = await readyToRun();
    await user.click(runButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('❌ Error: Failed to start test run');
    expect(alert).toHaveTextContent('You already have 3 runs in progress; wait for one to finish.');
    expect(screen.queryByRole('region', { name: 'Monitoring job' })).not.toBeInTheDocument();
    expect(runButton()).toBeEnabled();
  });

  it('shows the plain error banner when the server gives no reason', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    backend(() => new Response('', { status: 500 }));
    const { user } = await readyToRun();
    await user.click(runButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(/^❌ Error: Failed to start test run$/);
  });

  it('lets the user dismiss the banner', async () => {
    backend();
    const { user } = await readyToRun();
    await user.click(runButton());
    const banner = (await screen.findByText('✅ Success: Test run queued.')).closest('.status-banner') as HTMLElement;
    await user.click(within(banner).getByRole('button', { name: 'Close' }));
    expect(screen.queryByText('✅ Success: Test run queued.')).not.toBeInTheDocument();
  });

  it('replaces the previous job once a new run has started, and follows it until then', async () => {
    seedMonitoredJob('old-job', 'old');
    const answer = deferred();
    backend(answer.handler);
    const { user } = await readyToRun();
    expect(screen.getByRole('region', { name: 'Monitoring job' })).toHaveTextContent('old-job');

    await user.click(runButton());
    // Not started yet: the run being followed is still followed.
    expect(screen.getByRole('region', { name: 'Monitoring job' })).toHaveTextContent('old-job');
    expect(JSON.parse(localStorage.getItem('ctpo.monitoredJob') ?? 'null')).toMatchObject({ taskArn: 'old-job' });

    answer.resolve(json(STARTED, 202));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Monitoring job' })).toHaveTextContent('job-42'));
    expect(screen.getByRole('region', { name: 'Monitoring job' })).not.toHaveTextContent('old-job');
    expect(JSON.parse(localStorage.getItem('ctpo.monitoredJob') ?? 'null')).toMatchObject({ taskArn: 'job-42' });
  });

  it('keeps the monitor of the run being followed when a fourth start is refused', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    seedMonitoredJob('old-job', 'old');
    backend(() => json({ message: 'You already have 3 test runs in progress. Wait for one to finish, then start this one.', code: 'too_many_runs' }, 429));
    const { user } = await readyToRun();
    await user.click(runButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('You already have 3 test runs in progress.');
    expect(screen.getByRole('region', { name: 'Monitoring job' })).toHaveTextContent('old-job');
    expect(JSON.parse(localStorage.getItem('ctpo.monitoredJob') ?? 'null')).toMatchObject({ taskArn: 'old-job' });
  });
});
