import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend, json, TEST_CONFIG, type Handler } from './support/fake-backend';
import { advance, settleUntil } from './support/fake-time';
import { renderApp } from './support/render-app';
import { seedMonitoredJob, seedSignedInUser, type SeededSession } from './support/session';

const ARN = 'arn:aws:ecs:ca-central-1:123456789012:task/ctpo-cluster/0f1e2d3c';
const STATUS_PATH = `/api/job-status/${encodeURIComponent(ARN)}`;
let session: SeededSession;

beforeEach(() => {
  localStorage.clear();
  session = seedSignedInUser();
  seedMonitoredJob(ARN, 'acme-6606-20250101-x7k2');
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

/** Answers each poll with the next scripted reply; the last one repeats. */
function script(...replies: (Response | (() => Response))[]): Handler {
  return () => {
    const next = replies.length > 1 ? replies.shift() : replies[0];
    if (!next) throw new Error('empty script');
    return typeof next === 'function' ? next() : next.clone();
  };
}

async function startMonitoring(handler: Handler, config: Record<string, unknown> = TEST_CONFIG) {
  const backend = new FakeBackend(config).on('GET', '/api/job-status/*', handler).install();
  const view = renderApp();
  await settleUntil(() => screen.getByRole('heading', { name: 'Monitoring job' }));
  await settleUntil(() => expect(backend.requestsTo('/api/job-status/*')).toHaveLength(1));
  await advance(0);
  return { backend, ...view };
}

const monitor = () => screen.getByRole('region', { name: 'Monitoring job' });

describe('polling', () => {
  it('asks at once with the bearer token, then every 10 s until the job succeeds', async () => {
    const { backend } = await startMonitoring(
      script(
        json({ status: 'PROVISIONING' }),
        json({ status: 'PENDING' }),
        json({ status: 'RUNNING' }),
        json({ status: 'DEPROVISIONING' }),
        json({ status: 'SUCCEEDED', outputUrl: 'https://reports.example.ca/r/' }),
      ),
    );
    const polls = () => backend.requestsTo('/api/job-status/*');
    const [first] = polls();
    expect(first?.url.href).toBe(`https://api.example.ca${STATUS_PATH}`);
    expect(first?.method).toBe('GET');
    expect(first?.headers.get('Authorization')).toBe(`Bearer ${session.accessToken}`);
    expect(first?.credentials).toBe('include');
    expect(first?.headers.get('Accept-Language')).toBe('en');
    expect(within(monitor()).getByText(ARN)).toBeInTheDocument();
    expect(within(monitor()).getByRole('status')).toHaveTextContent('Setting up environment...');

    await advance(9_999);
    expect(polls()).toHaveLength(1);
    await advance(1);
    expect(polls()).toHaveLength(2);
    expect(within(monitor()).getByRole('status')).toHaveTextContent('Job is pending...');

    await advance(10_000);
    expect(within(monitor()).getByRole('status')).toHaveTextContent('Job is running...');
    await advance(10_000);
    expect(within(monitor()).getByRole('status')).toHaveTextContent('Cleaning up resources...');
    await advance(10_000);
    expect(within(monitor()).getByRole('status')).toHaveTextContent('QA job completed successfully.');
    expect(polls()).toHaveLength(5);

    await advance(120_000);
    expect(polls()).toHaveLength(5);
  });

  it('stops after FAILED and shows why', async () => {
    const { backend } = await startMonitoring(
      script(json({ status: 'RUNNING' }), json({ status: 'FAILED', reason: 'Brightspace refused the login: check the password.' })),
    );
    await advance(10_000);
    const banner = within(monitor()).getByRole('alert');
    expect(banner).toHaveTextContent('QA job failed. Check logs for details.');
    expect(within(monitor()).getByText('Job failed. Check logs for details.')).toBeInTheDocument();
    expect(within(monitor()).getByText('Brightspace refused the login: check the password.')).toBeInTheDocument();
    expect(within(monitor()).queryByRole('link')).not.toBeInTheDocument();
    await advance(60_000);
    expect(backend.requestsTo('/api/job-status/*')).toHaveLength(2);
  });

  it('uses the configured interval and the separate job-status host when there is one', async () => {
    const { backend } = await startMonitoring(script(json({ status: 'RUNNING' })), {
      ...TEST_CONFIG,
      pollIntervalMs: 3000,
      jobStatusApiUrl: 'https://status.example.ca/',
    });
    expect(backend.requestsTo('/api/job-status/*')[0]?.url.href).toBe(`https://status.example.ca${STATUS_PATH}`);
    await advance(2_999);
    expect(backend.requestsTo('/api/job-status/*')).toHaveLength(1);
    await advance(1);
    expect(backend.requestsTo('/api/job-status/*')).toHaveLength(2);
  });

  it('polls every 10 s when the config does not say', async () => {
    const { pollIntervalMs: _default, ...withoutInterval } = TEST_CONFIG;
    const { backend } = await startMonitoring(script(json({ status: 'RUNNING' })), withoutInterval);
    await advance(9_999);
    expect(backend.requestsTo('/api/job-status/*')).toHaveLength(1);
    await advance(1);
    expect(backend.requestsTo('/api/job-status/*')).toHaveLength(2);
  });

  it.each([
    ['a server error', () => json({ message: 'overloaded', code: 'overloaded' }, 503)],
    ['a network failure', () => { throw new TypeError('Failed to fetch'); }],
    ['a body that is not JSON', () => new Response('<html>oops</html>', { status: 200 })],
    ['a body without a status', () => json({ outputUrl: 'https://x/' })],
  ])('after %s: logs to the console only and keeps polling', async (_name, failure) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { backend } = await startMonitoring(script(json({ status: 'RUNNING' }), failure, json({ status: 'SUCCEEDED' })));
    await advance(10_000);
    expect(backend.requestsTo('/api/job-status/*')).toHaveLength(2);
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('checking the job status failed'), expect.anything());
    // Nothing new shown: the last known status stays.
    expect(within(monitor()).getByRole('status')).toHaveTextContent('Job is running...');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await advance(10_000);
    expect(backend.requestsTo('/api/job-status/*')).toHaveLength(3);
    expect(within(monitor()).getByRole('status')).toHaveTextContent('QA job completed successfully.');
  });

  it('shows an unknown status in a neutral banner and keeps polling', async () => {
    const { backend } = await startMonitoring(script(json({ status: 'PAUSED' }), json({ status: 'RUNNING' })));
    const banner = within(monitor()).getByRole('status');
    expect(banner).toHaveTextContent('Job status: PAUSED');
    expect(banner).toHaveClass('status-banner--neutral');
    await advance(10_000);
    expect(backend.requestsTo('/api/job-status/*')).toHaveLength(2);
    expect(within(monitor()).getByRole('status')).toHaveClass('status-banner--info');
  });
});

describe('the banner', () => {
  it('is green on success, red on failure, blue while under way', async () => {
    await startMonitoring(script(json({ status: 'RUNNING' }), json({ status: 'SUCCEEDED' })));
    expect(within(monitor()).getByRole('status')).toHaveClass('status-banner--info');
    await advance(10_000);
    expect(within(monitor()).getByRole('status')).toHaveClass('status-banner--success');
  });

  it('can be dismissed, and comes back when the status changes', async () => {
    await startMonitoring(script(json({ status: 'RUNNING' }), json({ status: 'RUNNING' }), json({ status: 'DEPROVISIONING' })));
    // fireEvent, not user-event: Testing Library's async wrapper waits on a timer fake time never runs.
    fireEvent.click(within(monitor()).getByRole('button', { name: 'Close' }));
    expect(within(monitor()).queryByRole('status')).not.toBeInTheDocument();

    await advance(10_000);
    expect(within(monitor()).queryByRole('status')).not.toBeInTheDocument();
    await advance(10_000);
    expect(within(monitor()).getByRole('status')).toHaveTextContent('Cleaning up resources...');
  });
});

describe('progress', () => {
  it('shows a progress bar when the status carries progress', async () => {
    await startMonitoring(script(json({ status: 'RUNNING', progress: { done: 12, total: 40 } }), json({ status: 'RUNNING', progress: { done: 30, total: 40 } })));
    const bar = within(monitor()).getByRole('progressbar', { name: 'Progress: 12 of 40' });
    expect(bar).toHaveAttribute('value', '12');
    expect(bar).toHaveAttribute('max', '40');
    await advance(10_000);
    expect(within(monitor()).getByRole('progressbar', { name: 'Progress: 30 of 40' })).toHaveAttribute('value', '30');
  });

  it('names what the run is doing: the short phases in words, topics and links counted', async () => {
    await startMonitoring(
      script(
        json({ status: 'RUNNING', progress: { done: 0, total: 1, phase: 'sign-in' } }),
        json({ status: 'RUNNING', progress: { done: 0, total: 1, phase: 'contents' } }),
        json({ status: 'RUNNING', progress: { done: 120, total: 300, phase: 'topics' } }),
        json({ status: 'RUNNING', progress: { done: 800, total: 1305, phase: 'links' } }),
        json({ status: 'RUNNING', progress: { done: 0, total: 1, phase: 'report' } }),
      ),
    );
    // A phase without counts shows a bar with no value: busy, with no amount claimed.
    expect(within(monitor()).getByRole('progressbar', { name: 'Signing in to Brightspace…' })).not.toHaveAttribute('value');
    await advance(10_000);
    expect(within(monitor()).getByRole('progressbar', { name: 'Reading the course\'s table of contents…' })).not.toHaveAttribute('value');
    await advance(10_000);
    const topics = within(monitor()).getByRole('progressbar', { name: 'Checking topics: 120 of 300' });
    expect(topics).toHaveAttribute('value', '120');
    expect(topics).toHaveAttribute('max', '300');
    await advance(10_000);
    expect(within(monitor()).getByRole('progressbar', { name: 'Checking links: 800 of 1,305' })).toHaveAttribute('max', '1305');
    await advance(10_000);
    expect(within(monitor()).getByRole('progressbar', { name: 'Writing the report…' })).not.toHaveAttribute('value');
  });

  it('takes the bar away once the job has ended, whatever progress the last answer carried', async () => {
    await startMonitoring(
      script(
        json({ status: 'DEPROVISIONING', progress: { done: 1, total: 1, phase: 'report' } }),
        json({ status: 'SUCCEEDED', outputUrl: 'https://reports.example.ca/reports/', progress: { done: 1, total: 1, phase: 'report' } }),
      ),
    );
    expect(within(monitor()).getByRole('progressbar')).toBeInTheDocument();
    await advance(10_000);
    expect(within(monitor()).getByRole('status')).toHaveTextContent('QA job completed successfully.');
    expect(within(monitor()).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('ignores a phase it does not know and shows the plain count', async () => {
    await startMonitoring(script(json({ status: 'RUNNING', progress: { done: 3, total: 9, phase: 'warp-drive' } })));
    expect(within(monitor()).getByRole('progressbar', { name: 'Progress: 3 of 9' })).toHaveAttribute('value', '3');
  });

  it('shows none without progress, or with a nonsensical one', async () => {
    await startMonitoring(script(json({ status: 'RUNNING' }), json({ status: 'RUNNING', progress: { done: 1, total: 0 } })));
    expect(within(monitor()).queryByRole('progressbar')).not.toBeInTheDocument();
    await advance(10_000);
    expect(within(monitor()).queryByRole('progressbar')).not.toBeInTheDocument();
  });
});

describe('the report links', () => {
  it('open the report in a new tab and download it under the run’s file name', async () => {
    await startMonitoring(script(json({ status: 'SUCCEEDED', outputUrl: 'https://reports.example.ca/reports/' })));
    const view = within(monitor()).getByRole('link', { name: 'View HTML Output (opens in a new tab)' });
    expect(view).toHaveAttribute('href', 'https://reports.example.ca/reports/acme-6606-20250101-x7k2.html');
    expect(view).toHaveAttribute('target', '_blank');
    expect(view.getAttribute('rel')).toContain('noopener');
    const download = within(monitor()).getByRole('link', { name: '⬇ Download' });
    expect(download).toHaveAttribute('href', 'https://reports.example.ca/reports/acme-6606-20250101-x7k2.html');
    expect(download).toHaveAttribute('download', 'acme-6606-20250101-x7k2');
    expect(within(monitor()).queryByText('Job failed. Check logs for details.')).not.toBeInTheDocument();
  });

  it('offer the CSV and JSON twins beside the report', async () => {
    await startMonitoring(script(json({ status: 'SUCCEEDED', outputUrl: 'https://reports.example.ca/reports/' })));
    const csv = within(monitor()).getByRole('link', { name: '⬇ Findings (CSV)' });
    expect(csv).toHaveAttribute('href', 'https://reports.example.ca/reports/acme-6606-20250101-x7k2.csv');
    expect(csv).toHaveAttribute('download', 'acme-6606-20250101-x7k2.csv');
    const data = within(monitor()).getByRole('link', { name: '⬇ Report data (JSON)' });
    expect(data).toHaveAttribute('href', 'https://reports.example.ca/reports/acme-6606-20250101-x7k2.json');
    expect(data).toHaveAttribute('download', 'acme-6606-20250101-x7k2.json');
  });

  it('download as "output" when the run gave no file name', async () => {
    seedMonitoredJob(ARN, '');
    await startMonitoring(script(json({ status: 'SUCCEEDED', outputUrl: '/reports/' })));
    const download = within(monitor()).getByRole('link', { name: '⬇ Download' });
    expect(download).toHaveAttribute('download', 'output');
    expect(download).toHaveAttribute('href', `${window.location.origin}/reports/.html`);
  });

  it('are absent on success without an outputUrl', async () => {
    await startMonitoring(script(json({ status: 'SUCCEEDED' })));
    expect(within(monitor()).getByRole('status')).toHaveTextContent('QA job completed successfully.');
    expect(within(monitor()).queryByRole('link')).not.toBeInTheDocument();
  });

  it('are absent when the outputUrl is not a web address', async () => {
    await startMonitoring(script(json({ status: 'SUCCEEDED', outputUrl: 'javascript:alert(1)//' })));
    expect(within(monitor()).queryByRole('link')).not.toBeInTheDocument();
  });

  it('are absent before the job has succeeded', async () => {
    await startMonitoring(script(json({ status: 'RUNNING', outputUrl: 'https://reports.example.ca/reports/' })));
    expect(within(monitor()).queryByRole('link')).not.toBeInTheDocument();
  });
});

const SUMMARY = {
  findings: { error: 13, warning: 6, info: 2, review: 1 },
  topics: 15,
  scanned: 11,
  notScanned: 4,
  documents: 3,
  links: 120,
};

describe('the summary of a finished run', () => {
  it('says what was found in one line, from the job status', async () => {
    await startMonitoring(script(json({ status: 'RUNNING' }), json({ status: 'SUCCEEDED', outputUrl: 'https://reports.example.ca/reports/', summary: SUMMARY })));
    expect(within(monitor()).queryByText(/^Found/)).not.toBeInTheDocument();
    await advance(10_000);
    expect(within(monitor()).getByText(/^Found/)).toHaveTextContent(
      'Found 13 errors, 6 warnings, and 2 notes in 11 of 15 topics. 4 could not be scanned: check them by hand. 1 note needs review by a person. 120 links and 3 documents checked.',
    );
  });

  it('leaves out what is zero, says when nothing was found, and counts one in the singular', async () => {
    await startMonitoring(
      script(
        json({ status: 'SUCCEEDED', summary: { ...SUMMARY, findings: { error: 1, warning: 0, info: 0, review: 0 }, notScanned: 1, documents: 0, links: 1 } }),
      ),
    );
    expect(within(monitor()).getByText(/^Found/)).toHaveTextContent('Found 1 error in 11 of 15 topics. 1 could not be scanned: check it by hand. 1 link checked.');
  });

  it('says so when a run found nothing', async () => {
    await startMonitoring(script(json({ status: 'SUCCEEDED', summary: { ...SUMMARY, findings: { error: 0, warning: 0, info: 0, review: 0 }, scanned: 15, notScanned: 0 } })));
    expect(within(monitor()).getByText(/^No problems/)).toHaveTextContent('No problems found in 15 of 15 topics. 120 links and 3 documents checked.');
  });

  it('is left out when the status has none, or one that is not whole numbers', async () => {
    await startMonitoring(script(json({ status: 'SUCCEEDED', summary: { ...SUMMARY, topics: 'many' } })));
    expect(within(monitor()).getByRole('status')).toHaveTextContent('QA job completed successfully.');
    expect(within(monitor()).queryByText(/topics/)).not.toBeInTheDocument();
  });
});

describe('a failed run', () => {
  const REASON = 'Brightspace did not accept this user name and password. Check them and try again.';

  it('says why first, then the seed’s lines, and polls no more', async () => {
    const { backend } = await startMonitoring(script(json({ status: 'RUNNING' }), json({ status: 'FAILED', reason: REASON })));
    await advance(10_000);
    const banner = within(monitor()).getByRole('alert');
    const lines = within(banner).getAllByText(/./, { selector: 'p' }).map((line) => line.textContent);
    expect(lines).toEqual([REASON, 'QA job failed. Check logs for details.']);
    expect(within(monitor()).getByText('Job failed. Check logs for details.')).toBeInTheDocument();
    // The reason is what the alert says first.
    expect(banner.textContent?.indexOf(REASON)).toBe(0);
    await advance(60_000);
    expect(backend.requestsTo('/api/job-status/*')).toHaveLength(2);
  });

  it('keeps the reason in view when the banner is dismissed', async () => {
    await startMonitoring(script(json({ status: 'FAILED', reason: REASON })));
    fireEvent.click(within(monitor()).getByRole('button', { name: 'Close' }));
    expect(within(monitor()).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(monitor()).getByText(REASON)).toBeInTheDocument();
  });

  it('says what to do when the server gave no reason', async () => {
    await startMonitoring(script(json({ status: 'FAILED' })));
    expect(within(monitor()).getByRole('alert')).toHaveTextContent(/^The run did not finish\. Start it again; if it fails again, contact whoever runs CTPO\./);
  });
});

describe('the monitored job across reloads', () => {
  it('is picked up again from the browser’s storage', async () => {
    const { unmount } = await startMonitoring(script(json({ status: 'RUNNING' })));
    unmount();
    await startMonitoring(script(json({ status: 'RUNNING' })));
    expect(within(monitor()).getByText(ARN)).toBeInTheDocument();
  });

  it('is not shown to another user signing in on the same browser', async () => {
    seedMonitoredJob(ARN, 'f', 'someone.else@example.ca');
    const backend = new FakeBackend().install();
    renderApp();
    await settleUntil(() => screen.getByRole('button', { name: 'Sign out' }));
    expect(screen.queryByRole('heading', { name: 'Monitoring job' })).not.toBeInTheDocument();
    expect(backend.requestsTo('/api/job-status/*')).toHaveLength(0);
  });

  it('is ignored when the stored value is not a job', async () => {
    localStorage.setItem('ctpo.monitoredJob', '{"nope":');
    new FakeBackend().install();
    renderApp();
    await settleUntil(() => screen.getByRole('button', { name: 'Sign out' }));
    expect(screen.queryByRole('heading', { name: 'Monitoring job' })).not.toBeInTheDocument();
  });
});

describe('whose run, and for how long', () => {
  it('names the client and the course, by its name once the run has read it, and counts the elapsed time until the run ends', async () => {
    const startedAt = new Date(Date.now() - 65_000).toISOString();
    await startMonitoring(
      script(
        json({ status: 'RUNNING', client: 'Acme College', orgUnitId: 6606, startedAt }),
        json({ status: 'RUNNING', client: 'Acme College', orgUnitId: 6606, courseName: 'Nursing 101', startedAt }),
        json({ status: 'FAILED', reason: 'Cancelled', client: 'Acme College', orgUnitId: 6606, courseName: 'Nursing 101', startedAt, finishedAt: new Date(Date.now() + 20_000).toISOString() }),
      ),
    );
    expect(within(monitor()).getByText('Acme College: Org Unit ID 6606')).toBeInTheDocument();
    // The job's id stays, as the seed shows it.
    expect(within(monitor()).getByText(ARN)).toBeInTheDocument();
    expect(within(monitor()).getByText(/^Elapsed time:/)).toHaveTextContent('Elapsed time: 1:05');
    expect(within(monitor()).getByText('1:05')).toHaveAttribute('datetime', 'PT65S');
    await advance(1000);
    expect(within(monitor()).getByText(/^Elapsed time:/)).toHaveTextContent('Elapsed time: 1:06');
    await advance(9000);
    expect(within(monitor()).getByText('Acme College: Nursing 101 (Org Unit ID 6606)')).toBeInTheDocument();
    await advance(10_000);
    // Ended: the time it took, no longer counting.
    expect(within(monitor()).getByText(/^Elapsed time:/)).toHaveTextContent('Elapsed time: 1:25');
    await advance(5000);
    expect(within(monitor()).getByText(/^Elapsed time:/)).toHaveTextContent('Elapsed time: 1:25');
  });

  it('names the run from the browser’s storage before the first answer, also after a reload', async () => {
    localStorage.setItem('ctpo.monitoredJob', JSON.stringify({ taskArn: ARN, filename: 'acme-6606-20250101-x7k2', client: 'Acme College', orgUnitId: '6606', owner: 'qa.user@example.ca' }));
    await startMonitoring(script(json({ status: 'PENDING' })));
    expect(within(monitor()).getByText('Acme College: Org Unit ID 6606')).toBeInTheDocument();
    // Not started yet: no time to show.
    expect(within(monitor()).queryByText(/^Elapsed time:/)).not.toBeInTheDocument();
  });

  it('says what a run of course-wide items alone found without "in 0 of 0 topics"', async () => {
    await startMonitoring(script(json({ status: 'SUCCEEDED', outputUrl: 'https://reports.example.ca/reports/', summary: { ...SUMMARY, topics: 0, scanned: 0, notScanned: 0 } })));
    expect(within(monitor()).getByText(/^Found/)).toHaveTextContent(/^Found 13 errors, 6 warnings, and 2 notes in the course-wide items\./);
    expect(within(monitor()).queryByText(/0 of 0/)).not.toBeInTheDocument();
  });

  it('says so when the course-wide items had no problem', async () => {
    await startMonitoring(script(json({ status: 'SUCCEEDED', summary: { ...SUMMARY, topics: 0, scanned: 0, notScanned: 0, findings: { error: 0, warning: 0, info: 0, review: 0 } } })));
    expect(within(monitor()).getByText(/^No problems/)).toHaveTextContent(/^No problems found in the course-wide items\./);
  });
});

describe('Cancel', () => {
  const CANCEL_PATH = `/api/jobs/${encodeURIComponent(ARN)}`;

  it('asks first: Keep running, or Escape, changes nothing', async () => {
    const { backend } = await startMonitoring(script(json({ status: 'RUNNING' })));
    backend.on('DELETE', '/api/jobs/*', () => json({ status: 'FAILED', reason: 'Cancelled' }));
    fireEvent.click(within(monitor()).getByRole('button', { name: 'Cancel run' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Cancel this run?' });
    expect(dialog).toHaveTextContent('The run stops now and keeps no report. You can start it again later.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep running' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    fireEvent.click(within(monitor()).getByRole('button', { name: 'Cancel run' }));
    dialog = screen.getByRole('alertdialog', { name: 'Cancel this run?' });
    // Focus is in the dialog, whose buttons a keyboard reaches; Escape keeps the run.
    expect(dialog).toHaveFocus();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await advance(0);
    expect(backend.requestsTo('/api/jobs/*')).toHaveLength(0);
  });

  it('cancels once confirmed: DELETE with the bearer token, the run shown FAILED "Cancelled" at once, and polled no more', async () => {
    const { backend } = await startMonitoring(script(json({ status: 'RUNNING', startedAt: new Date().toISOString() })));
    backend.on('DELETE', '/api/jobs/*', () => json({ status: 'FAILED', reason: 'Cancelled', finishedAt: new Date().toISOString() }));
    fireEvent.click(within(monitor()).getByRole('button', { name: 'Cancel run' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel the run' }));
    await settleUntil(() => expect(within(monitor()).getByText('Job failed. Check logs for details.')).toBeInTheDocument());

    const [request] = backend.requestsTo('/api/jobs/*');
    expect(request?.url.href).toBe(`https://api.example.ca${CANCEL_PATH}`);
    expect(request?.method).toBe('DELETE');
    expect(request?.headers.get('Authorization')).toBe(`Bearer ${session.accessToken}`);
    const banner = within(monitor()).getByRole('alert');
    expect(banner).toHaveTextContent(/^CancelledQA job failed\. Check logs for details\.$/);
    expect(within(monitor()).queryByRole('button', { name: 'Cancel run' })).not.toBeInTheDocument();
    // Focus, on the button that went with the run, moves to the monitor that says how it ended.
    expect(screen.getByRole('heading', { name: 'Monitoring job' })).toHaveFocus();
    const polls = backend.requestsTo('/api/job-status/*').length;
    await advance(60_000);
    expect(backend.requestsTo('/api/job-status/*')).toHaveLength(polls);
  });

  it('shows how the run ended when it ended before the cancel landed (409)', async () => {
    const { backend } = await startMonitoring(script(json({ status: 'RUNNING' }), json({ status: 'SUCCEEDED', outputUrl: 'https://reports.example.ca/r/' })));
    backend.on('DELETE', '/api/jobs/*', () => json({ message: 'This run has already ended: there is nothing to cancel.', code: 'conflict' }, 409));
    fireEvent.click(within(monitor()).getByRole('button', { name: 'Cancel run' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel the run' }));
    await settleUntil(() => expect(within(monitor()).getByRole('status')).toHaveTextContent('QA job completed successfully.'));
    expect(within(monitor()).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says why when the cancel fails, and the run goes on being followed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { backend } = await startMonitoring(script(json({ status: 'RUNNING' })));
    backend.on('DELETE', '/api/jobs/*', () => json({ message: 'CTPO is busy with other test runs right now. Try again in a few minutes.', code: 'overloaded' }, 503));
    fireEvent.click(within(monitor()).getByRole('button', { name: 'Cancel run' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel the run' }));
    await settleUntil(() =>
      expect(within(monitor()).getByRole('alert')).toHaveTextContent('The run could not be cancelled. CTPO is busy with other test runs right now. Try again in a few minutes.'),
    );
    expect(within(monitor()).getByRole('button', { name: 'Cancel run' })).toBeEnabled();
    const polls = backend.requestsTo('/api/job-status/*').length;
    await advance(10_000);
    expect(backend.requestsTo('/api/job-status/*')).toHaveLength(polls + 1);
  });
});
