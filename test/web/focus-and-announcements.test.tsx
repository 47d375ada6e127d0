// Where focus goes as the work moves on, and what a screen reader is told: the module list (or why
// it failed) after 'Choose Modules', the job monitor after 'Run CTPO' (scrolled into view for a
// phone), a skip link past the header, and a run that failed told once: its start's success
// banner goes, and the monitor alone says it failed, why, and what to do.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend, json, type Handler } from './support/fake-backend';
import { fillForm } from './support/fill-form';
import { TOC } from './support/fixtures';
import { renderSignedInApp } from './support/render-app';
import { seedMonitoredJob, seedSignedInUser } from './support/session';

const scrolled: Element[] = [];

beforeEach(() => {
  localStorage.clear();
  seedSignedInUser();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  scrolled.length = 0;
  // jsdom lays nothing out and has no scrollIntoView; record who asked to be scrolled to.
  Element.prototype.scrollIntoView = function scrollIntoView(this: Element) {
    scrolled.push(this);
  };
});
afterEach(() => {
  localStorage.clear();
  delete (Element.prototype as Partial<Element>).scrollIntoView;
});

function backend({ toc = () => json(TOC), status = () => json({ status: 'PROVISIONING' }) }: { toc?: Handler; status?: Handler } = {}) {
  return new FakeBackend()
    .on('POST', '/api/toc', toc)
    .on('POST', '/api/run-tests', () => json({ message: 'Test run started.', taskArn: 'job-7', filename: 'acme-6606-x' }, 202))
    .on('GET', '/api/job-status/*', status)
    .install();
}

describe("after 'Choose Modules'", () => {
  it('moves focus to the module list, which announces its name and how much is selected', async () => {
    backend();
    const { user } = await renderSignedInApp();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    const group = await screen.findByRole('group', { name: 'Modules' });
    await waitFor(() => expect(group).toHaveFocus());
    expect(group).toHaveAccessibleName('Modules');
    expect(group).toHaveAccessibleDescription('4 of 4 modules selected, 1 topic');
  });

  it('moves focus to the reason when loading failed, in an alert', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    backend({ toc: () => json({ message: 'Brightspace did not accept this user name and password.', code: 'login_failed' }, 502) });
    const { user } = await renderSignedInApp();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveFocus());
    expect(alert).toHaveTextContent('Failed to load TOCBrightspace did not accept this user name and password.');
  });

  it('does not take focus when the page only resumes a job', async () => {
    seedMonitoredJob('job-old', 'f');
    backend();
    await renderSignedInApp();
    await screen.findByRole('region', { name: 'Monitoring job' });
    expect(scrolled).toEqual([]);
    expect(document.body).toHaveFocus();
  });
});

describe("after 'Run CTPO'", () => {
  it('moves focus to the job monitor’s heading and scrolls it to the top of the screen', async () => {
    backend();
    const { user } = await renderSignedInApp();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    await screen.findByRole('group', { name: 'Modules' });
    await user.click(screen.getByRole('button', { name: 'Run CTPO' }));

    const heading = await screen.findByRole('heading', { name: 'Monitoring job' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(scrolled).toEqual([heading]);
    // What comes next is announced as it arrives: the job's status is a live region.
    const monitor = screen.getByRole('region', { name: 'Monitoring job' });
    expect(await within(monitor).findByRole('status')).toHaveTextContent('Setting up environment...');
  });

  it('tells a failed run once: the start’s success banner goes, and the monitor gives the seed’s texts with the reason', async () => {
    backend({ status: () => json({ status: 'FAILED', reason: 'Brightspace did not accept this user name and password. Check them and try again.' }) });
    const { user } = await renderSignedInApp();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    await screen.findByRole('group', { name: 'Modules' });
    await user.click(screen.getByRole('button', { name: 'Run CTPO' }));

    const monitor = await screen.findByRole('region', { name: 'Monitoring job' });
    await within(monitor).findByText('Job failed. Check logs for details.');
    // One error message: the monitor's, with the reason once.
    const alerts = screen.getAllByRole('alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toHaveTextContent(/^Brightspace did not accept this user name and password\. Check them and try again\.QA job failed\. Check logs for details\.$/);
    expect(screen.getAllByText('Brightspace did not accept this user name and password. Check them and try again.')).toHaveLength(1);
    // The monitor tells its parent the run failed after it has shown it: the banner goes on the next render.
    await waitFor(() => expect(screen.queryByText(/Success/)).not.toBeInTheDocument());
    expect(screen.queryByText(/started, then failed/)).not.toBeInTheDocument();
  });
});

describe('the skip link', () => {
  it('is the first thing on the page and leads to the form, which can take focus', async () => {
    backend();
    const { user } = await renderSignedInApp();
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to the form' });
    expect(skip).toHaveFocus();
    const target = document.getElementById(skip.getAttribute('href')!.slice(1));
    expect(target?.tagName).toBe('FORM');
    expect(target).toHaveAttribute('tabindex', '-1');
    expect(within(target!).getByLabelText('Brightspace Username')).toBeInTheDocument();
  });
});
