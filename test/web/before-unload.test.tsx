import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, FakeBackend, json } from './support/fake-backend';
import { fillForm } from './support/fill-form';
import { TOC } from './support/fixtures';
import { renderSignedInApp } from './support/render-app';
import { seedSignedInUser } from './support/session';

beforeEach(() => {
  localStorage.clear();
  seedSignedInUser();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  localStorage.clear();
});

/** What the browser does before leaving: true when the page asked to confirm. */
function leaveWouldWarn(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  act(() => {
    window.dispatchEvent(event);
  });
  return event.defaultPrevented;
}

describe('leaving the page', () => {
  it('is not questioned with an untouched form and no job', async () => {
    new FakeBackend().install();
    await renderSignedInApp();
    expect(leaveWouldWarn()).toBe(false);
  });

  it('is questioned once a field has been edited, and not after clearing it again', async () => {
    new FakeBackend().install();
    const { user } = await renderSignedInApp();
    await user.type(screen.getByLabelText('Client'), 'Acme');
    expect(leaveWouldWarn()).toBe(true);
    await user.clear(screen.getByLabelText('Client'));
    expect(leaveWouldWarn()).toBe(false);
  });

  it('is questioned while the job runs, and not once it has finished with nothing unsaved', async () => {
    let status = 'RUNNING';
    const statusAnswer = deferred();
    const api = new FakeBackend()
      .on('POST', '/api/toc', () => json(TOC))
      .on('POST', '/api/run-tests', () => json({ message: 'Queued', taskArn: 'job-7', filename: 'f' }, 202))
      .on('GET', '/api/job-status/*', async () => {
        await statusAnswer.promise;
        return json({ status });
      })
      .install();
    const { user } = await renderSignedInApp();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    await user.click(await screen.findByRole('button', { name: 'Run CTPO' }));
    await screen.findByRole('region', { name: 'Monitoring job' });
    // The run saved the form's values; only the job is left to wait for.
    expect(leaveWouldWarn()).toBe(true);

    status = 'SUCCEEDED';
    statusAnswer.resolve(new Response());
    await screen.findByText('QA job completed successfully.');
    expect(api.requestsTo('/api/job-status/job-7')).toHaveLength(1);
    // The listener goes with the effect that follows the render, which a busy machine may run a
    // moment after the message is on screen.
    await vi.waitFor(() => expect(leaveWouldWarn()).toBe(false), { timeout: 5000 });

    await user.type(screen.getByLabelText('Client'), '!');
    expect(leaveWouldWarn()).toBe(true);
  });
});
