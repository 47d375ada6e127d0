// The findings view of a finished run: read from its JSON twin, gathered by problem as the report
// gathers them (collapsed groups with counts, named and with their fix in the interface's language,
// the details in the report's), filtered by what to show, severity, problem and module; 'Dismiss'
// (with a reason) and 'Restore' go to /api/dismissals and show on the finding at once.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend, json } from './support/fake-backend';
import { renderApp, renderSignedInApp } from './support/render-app';
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
  await within(view).findByText(/findings shown\./);
  return { ...rendered, view };
}

/** The problems shown, as their headings' buttons read (name, severity, count). */
const groupButtons = (view: HTMLElement) => within(view).queryAllByRole('button', { expanded: false }).concat(within(view).queryAllByRole('button', { expanded: true })).sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
const shownGroups = (view: HTMLElement) => groupButtons(view).map((button) => button.textContent);
const group = (view: HTMLElement, title: string) => within(view).getByRole('button', { name: new RegExp(`^${title} `) });
/** Opens a problem and gives its findings. */
async function openGroup(user: Awaited<ReturnType<typeof openFindings>>['user'], view: HTMLElement, title: string) {
  const button = group(view, title);
  if (button.getAttribute('aria-expanded') !== 'true') await user.click(button);
  const body = document.getElementById(button.getAttribute('aria-controls')!)!;
  return { body, items: () => within(body).getAllByRole('listitem') };
}

describe('the findings view', () => {
  it('reads the run’s JSON twin and the course’s dismissals, and gathers the findings by problem, errors first, each closed with its count', async () => {
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

    // Named as the report names them, in the interface's language (the run's is French).
    expect(shownGroups(view)).toEqual([
      'Broken link Error 1 finding',
      'Placeholder text Error 1 finding',
      'Grade item missing Warning 1 finding',
      'Permanent redirect Note 1 finding',
      'Link could not be verified Note 1 finding',
    ]);
    expect(groupButtons(view).every((button) => button.getAttribute('aria-expanded') === 'false')).toBe(true);
    expect(within(view).getByText('5 of 5 findings shown. 5 problems.')).toBeInTheDocument();
    // Closed, a problem's findings are out of sight.
    expect(within(view).queryByText('La page n’existe pas (HTTP 404).')).not.toBeVisible();
  });

  it('opens a problem on its heading: its fix once, its check id small, then each finding with its place, status and address', async () => {
    backend();
    const { user, view } = await openFindings();
    const broken = await openGroup(user, view, 'Broken link');
    expect(group(view, 'Broken link')).toHaveAttribute('aria-expanded', 'true');
    expect(broken.body).toHaveTextContent('How to fix: Point the link at a page that exists, or remove the link.');
    expect(broken.body).toHaveTextContent('Check ID: link.broken');
    const [finding] = broken.items();
    expect(finding).toHaveTextContent('New since the last run');
    expect(finding).toHaveTextContent('Semaine 1 › Cellules · “l’article”');
    // The details are the report's, in its language, and say so.
    expect(within(finding!).getByText('La page n’existe pas (HTTP 404).')).toHaveAttribute('lang', 'fr-CA');
    expect(within(finding!).getByRole('link', { name: 'https://x.example/gone' })).toHaveAttribute('rel', 'noopener noreferrer');

    // An address that is not a web address is never a link.
    const placeholder = await openGroup(user, view, 'Placeholder text');
    expect(within(placeholder.items()[0]!).queryByRole('link')).not.toBeInTheDocument();
    const unverifiable = await openGroup(user, view, 'Link could not be verified');
    const dismissed = unverifiable.items()[0]!;
    expect(dismissed).toHaveTextContent('Dismissed by qa.user@example.ca on');
    expect(dismissed).toHaveTextContent('Reason: Le site bloque les robots.');
    expect(within(dismissed).getByRole('button', { name: 'Restore' })).toBeInTheDocument();

    await user.click(group(view, 'Broken link'));
    expect(group(view, 'Broken link')).toHaveAttribute('aria-expanded', 'false');
    expect(broken.body).not.toBeVisible();
  });

  it('speaks the interface’s language, whatever the run’s', async () => {
    localStorage.setItem('ctpo.language', 'de');
    backend();
    const rendered = renderApp();
    const runs = await screen.findByRole('region', { name: 'Letzte Läufe' });
    await rendered.user.click(await within(runs).findByRole('button', { name: 'Befunde' }));
    const view = await screen.findByRole('region', { name: /^Befunde von Acme College/ });
    await waitFor(() => expect(shownGroups(view)[0]).toBe('Defekter Link Fehler 1 Befund'));
    await rendered.user.click(group(view, 'Defekter Link'));
    expect(view).toHaveTextContent('So beheben Sie es: Lassen Sie den Link auf eine vorhandene Seite zeigen');
    expect(within(view).getByText('La page n’existe pas (HTTP 404).')).toHaveAttribute('lang', 'fr-CA');
  });

  it('filters by what to show, severity, problem and module; one problem alone is shown open', async () => {
    backend();
    const { user, view } = await openFindings();
    await user.selectOptions(within(view).getByLabelText('Severity'), 'Error');
    expect(shownGroups(view)).toEqual(['Broken link Error 1 finding', 'Placeholder text Error 1 finding']);
    // The problems by name, in alphabetical order, never as ids.
    expect(within(within(view).getByLabelText('Check')).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'All',
      'Broken link',
      'Grade item missing',
      'Link could not be verified',
      'Permanent redirect',
      'Placeholder text',
    ]);
    await user.selectOptions(within(view).getByLabelText('Check'), 'Placeholder text');
    expect(shownGroups(view)).toEqual(['Placeholder text Error 1 finding']);
    expect(group(view, 'Placeholder text')).toHaveAttribute('aria-expanded', 'true');
    expect(within(view).getByText('1 of 5 findings shown. 1 problem.')).toBeInTheDocument();
    await user.selectOptions(within(view).getByLabelText('Check'), 'All');
    await user.selectOptions(within(view).getByLabelText('Severity'), 'All');

    await user.selectOptions(within(view).getByLabelText('Module'), 'Semaine 2');
    expect(shownGroups(view)).toEqual(['Permanent redirect Note 1 finding', 'Link could not be verified Note 1 finding']);
    await user.selectOptions(within(view).getByLabelText('Module'), 'Course-wide items');
    expect(shownGroups(view)).toEqual(['Grade item missing Warning 1 finding']);
    await user.selectOptions(within(view).getByLabelText('Module'), 'All');

    await user.selectOptions(within(view).getByLabelText('Show'), 'Dismissed');
    expect(shownGroups(view)).toEqual(['Link could not be verified Note 1 finding']);
    await user.selectOptions(within(view).getByLabelText('Show'), 'To fix');
    expect(shownGroups(view)).toHaveLength(4);
    await user.selectOptions(within(view).getByLabelText('Severity'), 'Note');
    await user.selectOptions(within(view).getByLabelText('Module'), 'Semaine 1');
    expect(within(view).getByText('No findings match these filters.')).toBeInTheDocument();
  });

  it('dismisses a finding with a reason, keeps focus on it, and restores it', async () => {
    const api = backend();
    const { user, view } = await openFindings();
    const { items } = await openGroup(user, view, 'Placeholder text');
    const placeholder = () => items()[0]!;
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
    const { items } = await openGroup(user, view, 'Broken link');
    const first = () => items()[0]!;
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

describe('many findings', () => {
  it('take a line per problem until one is opened, the one in most places first; an axe rule without a name of its own is named as the report names it', async () => {
    const many = Array.from({ length: 58 }, (_, index) => ({
      fingerprint: index.toString(16).padStart(20, '0'),
      check: index < 40 ? 'link.broken' : index < 50 ? 'a11y.target-size' : 'content.placeholder',
      severity: index < 50 ? 'error' : 'warning',
      ...place(1 + (index % (index < 40 ? 2 : 5)), 'Semaine', 'Sujet'),
      topicId: index,
      url: null,
      message: `Constat ${index}`,
    }));
    backend().on('GET', `/reports/k1.1900000000.abc/${RUN.filename}.json`, () => json({ ...REPORT, findings: many, dismissed: [] }), 'https://ctpo.example.ca');
    const { user, view } = await openFindings();
    expect(shownGroups(view)).toEqual(['Broken link Error 40 findings', 'All touch targets must be 24px large, or leave sufficient space Error 10 findings', 'Placeholder text Warning 8 findings']);
    // Closed, the problems show no finding: 3 lines, not 58 cards.
    expect(within(view).queryAllByText(/^Constat/).every((text) => text.closest('[hidden]') !== null)).toBe(true);
    const target = await openGroup(user, view, 'All touch targets must be 24px large, or leave sufficient space');
    expect(target.items()).toHaveLength(10);
    expect(target.body).toHaveTextContent('How to fix: Ensure touch targets have sufficient size and space.');
  });
});
