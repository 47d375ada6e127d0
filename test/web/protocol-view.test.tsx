// The Protocol view and a run's sign-off as a user meets them: a protocol started from CTPO's
// default, edited (an item answered by a person, a check chosen by its title), saved for a client
// label and refused with the server's own words; Recent runs with the readiness score and who marked
// a run ready; sign-off refused while an item needs a person, an answer saved, the run marked ready.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend, json } from './support/fake-backend';
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

const DEFAULT = { name: 'CTPO launch checklist', version: 1, items: [{ id: 'links-work', title: 'Every link works', checks: ['link.broken'], weight: 3 }] };
const RUN = {
  taskArn: 'job-7',
  filename: 'acme-6606-run',
  status: 'SUCCEEDED',
  client: 'Acme College',
  siteUrl: 'https://school.brightspace.com',
  orgUnitId: 6606,
  modules: [1],
  createdAt: '2026-11-28T10:00:00.000Z',
  outputUrl: 'https://ctpo.example.ca/reports/k1.1900000000.abc/',
  summary: { findings: { error: 1, warning: 0, info: 0, review: 0 }, topics: 1, scanned: 1, notScanned: 0, documents: 0, links: 1, protocol: { name: 'Acme launch', version: 2, score: 100, items: { pass: 1, fail: 0, person: 1, na: 0 } } },
};
const runProtocol = (contact: 'needs-person' | 'pass', ready = false) => ({
  protocol: {
    name: 'Acme launch',
    version: 2,
    score: 100,
    items: [
      { id: 'links-work', title: 'Every link works', kind: 'auto', status: 'pass', weight: 3, findings: [], checks: ['link.broken'], allow: 0, minSeverity: 'warning' },
      {
        id: 'contact',
        title: 'Contact is right',
        kind: 'manual',
        status: contact,
        weight: 1,
        findings: [],
        ...(contact === 'pass' ? { answer: { status: 'pass', note: 'Checked', by: 'qa@example.com', at: '2026-11-28T11:00:00.000Z' } } : {}),
      },
    ],
    ...(ready ? { ready: { by: 'qa@example.com', at: '2026-11-28T12:00:00.000Z' } } : {}),
  },
  canSignOff: contact === 'pass',
});

describe('the Protocol view', () => {
  it('starts from the default, edits items, saves for a client and shows what the server refused', async () => {
    let saves = 0;
    const api = new FakeBackend()
      .on('GET', '/api/protocols', () => json({ protocols: [], default: DEFAULT }))
      .on('PUT', '/api/protocols', (request) => {
        saves += 1;
        if (saves === 1) return json({ code: 'invalid_input', message: 'Item "item-2": title must be text of 1 to 300 characters.' }, 400);
        const body = request.body as { client: string; protocol: unknown };
        return json({ client: body.client, protocol: body.protocol, by: 'qa@example.com', at: '2026-11-28T10:00:00.000Z' });
      })
      .install();
    const { user } = await renderSignedInApp();
    await user.click(screen.getByRole('button', { name: 'Protocols' }));
    const view = await screen.findByRole('region', { name: 'Course testing protocols' });
    expect(await within(view).findByDisplayValue('CTPO launch checklist')).toBeInTheDocument();
    const first = within(view).getByRole('group', { name: 'Item 1' });
    const chosen = () => within(within(first).getByRole('list', { name: 'Checks of this item' })).getAllByRole('listitem').map((item) => item.querySelector('code')?.textContent);
    expect(chosen()).toEqual(['link.broken']);
    // The catalogue's checks arrive with the check texts of the interface's language, named by title.
    const picker = within(first).getByLabelText('Add a check');
    await within(picker).findByRole('option', { name: 'Unreachable link' });
    await user.selectOptions(picker, 'Unreachable link');
    expect(chosen()).toEqual(['link.broken', 'link.unreachable']);

    await user.click(within(view).getByRole('button', { name: 'Add an item' }));
    const second = within(view).getByRole('group', { name: 'Item 2' });
    await user.click(within(second).getByLabelText('Answered by a person'));
    await user.type(within(view).getByLabelText('Client label, as runs are started with'), 'Acme College');
    await user.click(within(view).getByRole('button', { name: 'Save protocol' }));
    expect(await within(view).findByRole('alert')).toHaveTextContent('Item "item-2": title must be text of 1 to 300 characters.');

    await user.type(within(second).getByLabelText('Title'), 'Contact is right');
    await user.click(within(view).getByRole('button', { name: 'Save protocol' }));
    await within(view).findByText('The protocol of Acme College is saved. Its next runs are scored by it.');
    const sent = api.requestsTo('/api/protocols').filter((request) => request.method === 'PUT').at(-1)!.body as { client: string; protocol: { items: unknown[] } };
    expect(sent.client).toBe('Acme College');
    expect(sent.protocol.items).toEqual([
      { id: 'links-work', title: 'Every link works', checks: ['link.broken', 'link.unreachable'], weight: 3 },
      { id: 'item-2', title: 'Contact is right', manual: true },
    ]);
    expect(within(view).getByRole('link', { name: 'Export JSON' })).toHaveAttribute('download', 'Acme-College.json');
  });
});

describe('signing off a run', () => {
  it('shows the readiness score, refuses sign-off while an item needs a person, saves an answer and marks the run ready', async () => {
    let state = runProtocol('needs-person');
    let ready = false;
    const api = new FakeBackend()
      .on('GET', '/api/jobs', () => json({ jobs: [{ ...RUN, ...(ready ? { readyForLaunch: { by: 'qa@example.com', at: '2026-11-28T12:00:00.000Z' } } : {}) }] }))
      .on('GET', '/api/protocols/runs/job-7', () => json(state))
      .on('PUT', '/api/protocols/runs/job-7', () => {
        state = runProtocol('pass');
        return json(state);
      })
      .on('POST', '/api/protocols/runs/job-7', () => {
        if (!state.canSignOff) return json({ code: 'invalid_input', message: 'The run cannot be marked ready for launch yet: 0 items fail and 1 needs a person.' }, 400);
        ready = true;
        state = runProtocol('pass', true);
        return json(state);
      })
      .install();
    const { user } = await renderSignedInApp();
    const runs = screen.getByRole('region', { name: 'Recent runs' });
    await within(runs).findByText('Readiness score: 100 of 100.');
    await user.click(within(runs).getByRole('button', { name: 'Sign off' }));
    const signOff = await screen.findByRole('region', { name: 'Sign-off: Acme College' });
    await within(signOff).findByText('Acme launch, version 2');

    await user.click(within(signOff).getByRole('button', { name: 'Mark ready for launch' }));
    expect(await within(signOff).findByRole('alert')).toHaveTextContent('The run cannot be marked ready for launch yet: 0 items fail and 1 needs a person.');

    const answer = within(signOff).getByRole('group', { name: 'Your answer: Contact is right' });
    await user.click(within(answer).getByLabelText('Pass'));
    await user.type(within(answer).getByLabelText('Note'), 'Checked');
    await user.click(within(answer).getByRole('button', { name: 'Save the answer to “Contact is right”' }));
    await within(signOff).findByText(/^Answered by qa@example.com on/);
    expect(api.requestsTo('/api/protocols/runs/job-7').find((request) => request.method === 'PUT')?.body).toEqual({ itemId: 'contact', status: 'pass', note: 'Checked' });

    await user.click(within(signOff).getByRole('button', { name: 'Mark ready for launch' }));
    await within(signOff).findByText(/^Ready for launch: marked by qa@example.com on/);
    await waitFor(() => expect(within(runs).getByText('Ready for launch (marked by qa@example.com).')).toBeInTheDocument());
  });
});
