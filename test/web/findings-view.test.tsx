// The findings view of a finished run: read from its JSON twin, filtered by what to show,
// severity, check and module; 'Dismiss' (with a reason) and 'Restore' go to /api/dismissals and
// show on the finding at once.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend, json } from './support/fake-backend';
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

const OUTPUT = 'https://ctpo.example.ca/reports/k1.1900000000.abc/';
const RUN = {
  taskArn: 'job-2',
  filename: 'acme-college-ou6606-20260502t100000z-abcdefghijklmnop',
  status: 'SUCCEEDED',
  client: 'Acme College',
  siteUrl: 'https://school.brightspace.com',
  orgUnitId: 6606,
  courseName: 'Biology 101',
  modules: [1, 2],
  createdAt: '2026-05-02T10:00:00.000Z',
  outputUrl: OUTPUT,
};
const F = (n: number) => String(n).repeat(20).slice(0, 20);
const place = (moduleId: number | null, title: string | null, topic: string | null) => ({ moduleId, moduleTitle: title, topicId: null, topicTitle: topic, itemType: 'topic', itemId: 1, itemTitle: topic });
const REPORT = {
  schemaVersion: 2,
  language: 'fr-CA',
  modules: [
    { moduleId: 1, title: 'Semaine 1' },
    { moduleId: 2, title: 'Semaine 2' },
  ],
  findings: [
    { fingerprint: F(1), check: 'link.broken', severity: 'error', ...place(1, 'Semaine 1', 'Cellules'), url: 'https://x.example/gone', linkText: 'l’article', message: 'La page n’existe pas (HTTP 404).', status: 'new' },
    { fingerprint: F(2), check: 'content.placeholder', severity: 'error', ...place(1, 'Semaine 1', 'Tissus'), url: 'javascript:alert(1)', message: 'Texte provisoire.', status: 'open' },
    { fingerprint: F(3), check: 'link.redirect', severity: 'info', ...place(2, 'Semaine 2', 'Organes'), url: 'https://x.example/old', message: 'Déplacée.', status: 'open' },
    { fingerprint: F(4), check: 'grades.missing-item', severity: 'warning', ...place(null, null, null), itemType: 'course', url: null, message: 'Élément de note manquant.' },
  ],
  dismissed: [
    { fingerprint: F(5), check: 'link.unverifiable', severity: 'info', ...place(2, 'Semaine 2', 'Organes'), url: 'https://x.example/wall', message: 'Non vérifiable.', dismissal: { by: 'qa.user@example.ca', at: '2026-05-01T12:00:00.000Z', reason: 'Le site bloque les robots.' } },
  ],
};

function backend() {
  const dismissals: { fingerprint: string; by: string; at: string; reason?: string }[] = [
    { fingerprint: F(5), by: 'qa.user@example.ca', at: '2026-05-01T12:00:00.000Z', reason: 'Le site bloque les robots.' },
  ];
  const api = new FakeBackend()
    .on('GET', '/api/jobs', () => json({ jobs: [RUN] }))
    .on('GET', `/reports/k1.1900000000.abc/${RUN.filename}.json`, () => json(REPORT), 'https://ctpo.example.ca')
    .on('GET', '/api/dismissals', () => json({ dismissals }))
    .on('PUT', '/api/dismissals', (request) => {
      const body = request.body as { fingerprint: string; reason?: string };
      const kept = { fingerprint: body.fingerprint, by: 'qa.user@example.ca', at: '2026-05-03T09:00:00.000Z', ...(body.reason ? { reason: body.reason } : {}) };
      dismissals.push(kept);
      return json(kept);
    })
    .on('DELETE', '/api/dismissals', (request) => json({ fingerprint: request.url.searchParams.get('fingerprint'), restored: true }))
    .install();
  return api;
}

async function openFindings() {
  const rendered = await renderSignedInApp();
  const runs = screen.getByRole('region', { name: 'Recent runs' });
  await rendered.user.click(await within(runs).findByRole('button', { name: 'Findings' }));
  const view = await screen.findByRole('region', { name: 'Findings of Acme College, Biology 101 (Org Unit ID 6606)' });
  await within(view).findByRole('list');
  return { ...rendered, view };
}

const shownChecks = (view: HTMLElement) => within(view).getAllByRole('listitem').map((item) => item.querySelector('code')?.textContent);

describe('the findings view', () => {
  it('reads the run’s JSON twin and the course’s dismissals, and shows every finding with its place and status', async () => {
    const api = backend();
    const { view } = await openFindings();
    expect(within(view).getByRole('heading', { level: 2 })).toHaveFocus();
    const [report] = api.requestsTo(`/reports/k1.1900000000.abc/${RUN.filename}.json`);
    expect(report?.url.href).toBe(`${OUTPUT}${RUN.filename}.json`);
    // The report address is its own permission: no token goes with it.
    expect(report?.headers.get('Authorization')).toBeNull();
    const [dismissals] = api.requestsTo('/api/dismissals');
    expect(dismissals?.url.searchParams.get('siteUrl')).toBe('https://school.brightspace.com');
    expect(dismissals?.url.searchParams.get('orgUnitId')).toBe('6606');
    expect(dismissals?.headers.get('Authorization')).toBe(`Bearer ${session.accessToken}`);

    expect(shownChecks(view)).toEqual(['link.broken', 'content.placeholder', 'link.redirect', 'grades.missing-item', 'link.unverifiable']);
    expect(within(view).getByText('5 of 5 findings shown.')).toBeInTheDocument();
    const broken = within(view).getAllByRole('listitem')[0]!;
    expect(broken).toHaveTextContent('Error');
    expect(broken).toHaveTextContent('New since the last run');
    expect(broken).toHaveTextContent('Semaine 1 › Cellules · “l’article”');
    expect(within(broken).getByText('La page n’existe pas (HTTP 404).')).toHaveAttribute('lang', 'fr-CA');
    expect(within(broken).getByRole('link', { name: 'https://x.example/gone' })).toHaveAttribute('rel', 'noopener noreferrer');
    // An address that is not a web address is never a link.
    expect(within(within(view).getAllByRole('listitem')[1]!).queryByRole('link')).not.toBeInTheDocument();
    const dismissed = within(view).getAllByRole('listitem')[4]!;
    expect(dismissed).toHaveTextContent('Dismissed by qa.user@example.ca on');
    expect(dismissed).toHaveTextContent('Reason: Le site bloque les robots.');
    expect(within(dismissed).getByRole('button', { name: 'Restore' })).toBeInTheDocument();
  });

  it('filters by what to show, severity, check and module', async () => {
    backend();
    const { user, view } = await openFindings();
    await user.selectOptions(within(view).getByLabelText('Severity'), 'Error');
    expect(shownChecks(view)).toEqual(['link.broken', 'content.placeholder']);
    await user.selectOptions(within(view).getByLabelText('Check'), 'content.placeholder');
    expect(shownChecks(view)).toEqual(['content.placeholder']);
    expect(within(view).getByText('1 of 5 findings shown.')).toBeInTheDocument();
    await user.selectOptions(within(view).getByLabelText('Check'), 'All');
    await user.selectOptions(within(view).getByLabelText('Severity'), 'All');

    await user.selectOptions(within(view).getByLabelText('Module'), 'Semaine 2');
    expect(shownChecks(view)).toEqual(['link.redirect', 'link.unverifiable']);
    await user.selectOptions(within(view).getByLabelText('Module'), 'Course-wide items');
    expect(shownChecks(view)).toEqual(['grades.missing-item']);
    await user.selectOptions(within(view).getByLabelText('Module'), 'All');

    await user.selectOptions(within(view).getByLabelText('Show'), 'Dismissed');
    expect(shownChecks(view)).toEqual(['link.unverifiable']);
    await user.selectOptions(within(view).getByLabelText('Show'), 'To fix');
    expect(shownChecks(view)).toHaveLength(4);
    await user.selectOptions(within(view).getByLabelText('Severity'), 'Note');
    await user.selectOptions(within(view).getByLabelText('Module'), 'Semaine 1');
    expect(within(view).getByText('No findings match these filters.')).toBeInTheDocument();
  });

  it('dismisses a finding with a reason, keeps focus on it, and restores it', async () => {
    const api = backend();
    const { user, view } = await openFindings();
    const placeholder = () => within(view).getAllByRole('listitem')[1]!;
    await user.click(within(placeholder()).getByRole('button', { name: 'Dismiss' }));
    const reason = within(placeholder()).getByLabelText('Why dismiss it? (optional)');
    expect(reason).toHaveFocus();
    await user.type(reason, 'The author fills it in at launch.');
    await user.click(within(placeholder()).getByRole('button', { name: 'Dismiss finding' }));

    await waitFor(() => expect(within(placeholder()).getByRole('button', { name: 'Restore' })).toHaveFocus());
    expect(api.requestsTo('/api/dismissals').filter((request) => request.method === 'PUT')[0]?.body).toEqual({
      siteUrl: 'https://school.brightspace.com',
      orgUnitId: 6606,
      fingerprint: F(2),
      reason: 'The author fills it in at launch.',
    });
    expect(placeholder()).toHaveTextContent('Dismissed by qa.user@example.ca on');
    expect(placeholder()).toHaveTextContent('Reason: The author fills it in at launch.');
    expect(placeholder()).not.toHaveTextContent('Still open');

    await user.click(within(placeholder()).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(within(placeholder()).getByRole('button', { name: 'Dismiss' })).toHaveFocus());
    const restore = api.requestsTo('/api/dismissals').find((request) => request.method === 'DELETE');
    expect(Object.fromEntries(restore!.url.searchParams)).toEqual({ siteUrl: 'https://school.brightspace.com', orgUnitId: '6606', fingerprint: F(2) });
    expect(placeholder()).toHaveTextContent('Still open');
  });

  it('says so when a change cannot be saved, and changes nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = backend();
    api.on('PUT', '/api/dismissals', () => json({ message: 'down', code: 'internal' }, 500));
    const { user, view } = await openFindings();
    const first = () => within(view).getAllByRole('listitem')[0]!;
    await user.click(within(first()).getByRole('button', { name: 'Dismiss' }));
    await user.click(within(first()).getByRole('button', { name: 'Dismiss finding' }));
    expect(await within(first()).findByRole('alert')).toHaveTextContent('The change could not be saved. Try again.');
    expect(first()).not.toHaveTextContent('Dismissed by');
  });

  it('says so when the findings cannot be loaded, and closes', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = backend();
    api.on('GET', `/reports/k1.1900000000.abc/${RUN.filename}.json`, () => new Response('gone', { status: 403 }), 'https://ctpo.example.ca');
    const rendered = await renderSignedInApp();
    await rendered.user.click(await within(screen.getByRole('region', { name: 'Recent runs' })).findByRole('button', { name: 'Findings' }));
    const view = await screen.findByRole('region', { name: /^Findings of Acme College/ });
    expect(await within(view).findByRole('alert')).toHaveTextContent('The findings of this run could not be loaded.');
    await rendered.user.click(within(view).getByRole('button', { name: 'Close findings' }));
    expect(screen.queryByRole('region', { name: /^Findings of/ })).not.toBeInTheDocument();
  });
});
