// axe-core over the whole document in each state of the page.
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { FakeBackend, json } from './support/fake-backend';
import { fillForm } from './support/fill-form';
import { TOC } from './support/fixtures';
import { renderApp, renderSignedInApp } from './support/render-app';
import { seedMonitoredJob, seedSignedInUser } from './support/session';

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  localStorage.clear();
});

function monitorJob(status: Record<string, unknown>) {
  seedSignedInUser();
  seedMonitoredJob('job-1', 'acme-report');
  new FakeBackend().on('GET', '/api/job-status/*', () => json(status)).install();
}

describe('accessibility (axe)', () => {
  it('signed out', async () => {
    new FakeBackend().install();
    renderApp();
    await screen.findByRole('button', { name: 'Sign in' });
    await expectNoAxeViolations();
  });

  it('sign-in failed', async () => {
    window.history.replaceState(null, '', '/?code=x&state=y');
    new FakeBackend().install();
    renderApp();
    await screen.findByText('Sign-in did not complete. Please try again.');
    await expectNoAxeViolations();
  });

  it('configuration error page', async () => {
    new FakeBackend({}).install();
    renderApp();
    await screen.findByRole('heading', { name: 'CTPO cannot start' });
    await expectNoAxeViolations();
  });

  it('the form', async () => {
    seedSignedInUser();
    new FakeBackend().install();
    await renderSignedInApp();
    await expectNoAxeViolations();
  });

  it('the form with field errors and the error summary', async () => {
    seedSignedInUser();
    new FakeBackend().install();
    const { user } = await renderSignedInApp();
    await user.type(screen.getByLabelText('Client Site URL'), 'nope{Enter}');
    await screen.findByRole('region', { name: /errors found/ });
    await expectNoAxeViolations();
  });

  it('modules loaded, with a run banner', async () => {
    seedSignedInUser();
    new FakeBackend()
      .on('POST', '/api/toc', () => json(TOC))
      .on('POST', '/api/run-tests', () => json({ message: 'Not now', code: 'too_many_runs' }, 429))
      .install();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = await renderSignedInApp();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    await user.click(await screen.findByRole('button', { name: 'Run CTPO' }));
    await screen.findByText('❌ Error: Failed to start test run');
    await expectNoAxeViolations();
  });

  it('fetching modules, and failed to load', async () => {
    seedSignedInUser();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    new FakeBackend().on('POST', '/api/toc', () => json({ message: 'Course not found', code: 'course_not_found' }, 502)).install();
    const { user } = await renderSignedInApp();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    await screen.findByText('Failed to load TOC');
    await expectNoAxeViolations();
  });

  it('monitor running, with progress', async () => {
    monitorJob({ status: 'RUNNING', progress: { done: 3, total: 9 } });
    await renderSignedInApp();
    await screen.findByText('Job is running...');
    await expectNoAxeViolations();
  });

  it('monitor succeeded', async () => {
    monitorJob({
      status: 'SUCCEEDED',
      outputUrl: 'https://reports.example.ca/',
      summary: { findings: { error: 3, warning: 1, info: 2, review: 1 }, topics: 9, scanned: 7, notScanned: 2, documents: 0, links: 40 },
    });
    await renderSignedInApp();
    await screen.findByRole('link', { name: '⬇ Findings (CSV)' });
    await screen.findByText(/^Found 3 errors/);
    await expectNoAxeViolations();
  });

  it('monitor failed', async () => {
    monitorJob({ status: 'FAILED', reason: 'The course could not be read.' });
    await renderSignedInApp();
    await screen.findByText('Job failed. Check logs for details.');
    await expectNoAxeViolations();
  });

  it('monitor with an unknown status', async () => {
    monitorJob({ status: 'PAUSED' });
    await renderSignedInApp();
    await screen.findByText('Job status: PAUSED');
    await expectNoAxeViolations();
  });

  it('help dialog open', async () => {
    seedSignedInUser();
    new FakeBackend().install();
    const { user } = await renderSignedInApp();
    await user.click(screen.getByRole('button', { name: 'Need help? Click the link for instructions on how to use CTPO.' }));
    await screen.findByRole('dialog');
    await expectNoAxeViolations();
  });
  it('recent runs, and the findings of one, with a finding being dismissed', async () => {
    seedSignedInUser();
    const run = {
      taskArn: 'job-2',
      filename: 'acme-report',
      status: 'SUCCEEDED',
      client: 'Acme College',
      siteUrl: 'https://school.brightspace.com',
      orgUnitId: 6606,
      courseName: 'Biology 101',
      modules: [1],
      createdAt: '2026-05-02T10:00:00.000Z',
      summary: { findings: { error: 1, warning: 0, info: 0, review: 0 }, topics: 1, scanned: 1, notScanned: 0, documents: 0, links: 1, comparison: { new: 1, fixed: 0, dismissed: 0 } },
      outputUrl: 'https://ctpo.example.ca/reports/',
    };
    const finding = { fingerprint: 'a'.repeat(20), check: 'link.broken', severity: 'error', moduleId: 1, moduleTitle: 'Week 1', topicTitle: 'Cells', itemTitle: 'Cells', url: 'https://x.example/gone', message: 'The page does not exist (HTTP 404).', status: 'new' };
    new FakeBackend()
      .on('GET', '/api/jobs', () => json({ jobs: [run, { ...run, taskArn: 'job-1', status: 'FAILED', reason: 'Sign-in failed.', summary: undefined, outputUrl: undefined }] }))
      .on('GET', '/reports/acme-report.json', () => json({ language: 'en', modules: [{ moduleId: 1, title: 'Week 1' }], findings: [finding], dismissed: [] }), 'https://ctpo.example.ca')
      .on('GET', '/api/dismissals', () => json({ dismissals: [] }))
      .install();
    const { user } = await renderSignedInApp();
    await user.click(await screen.findByRole('button', { name: 'Findings' }));
    await screen.findByText('The page does not exist (HTTP 404).');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await expectNoAxeViolations();
  });
});
