// The module picker shows what a run will test: a module takes its sub-modules (as the API does), a
// partly chosen module is mixed (its own topics and the checked sub-modules), the count says modules
// and topics, and the course-wide items are one more group, all checked at first. What is sent is
// what is shown: the chosen modules, and the unchecked sub-modules left out of them.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend, json } from './support/fake-backend';
import { fillForm } from './support/fill-form';
import { renderSignedInApp } from './support/render-app';
import { seedSignedInUser } from './support/session';

const topics = (count: number, from: number) => Array.from({ length: count }, (_, index) => ({ TopicId: from + index, Title: `Topic ${from + index}` }));

/** Unit A (2 topics) holds A.1 (3 topics) and A.2 (1 topic); Unit B (4 topics) stands alone. */
const TREE = {
  Modules: [
    {
      ModuleId: 10,
      Title: 'Unit A',
      Topics: topics(2, 100),
      Modules: [
        { ModuleId: 11, Title: 'A.1', Topics: topics(3, 110), Modules: [] },
        { ModuleId: 12, Title: 'A.2', Topics: topics(1, 120), Modules: [] },
      ],
    },
    { ModuleId: 20, Title: 'Unit B', Topics: topics(4, 200), Modules: [] },
  ],
};

beforeEach(() => {
  localStorage.clear();
  seedSignedInUser();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => localStorage.clear());

function backend() {
  return new FakeBackend()
    .on('POST', '/api/toc', () => json(TREE))
    .on('POST', '/api/run-tests', () => json({ message: 'Started.', taskArn: 'job-1', filename: 'f' }, 202))
    .on('GET', '/api/job-status/*', () => json({ status: 'PROVISIONING' }))
    .install();
}

async function loaded() {
  const rendered = await renderSignedInApp();
  await fillForm(rendered.user);
  await rendered.user.click(screen.getByRole('button', { name: 'Choose Modules' }));
  const group = await screen.findByRole('group', { name: 'Modules' });
  return { ...rendered, group };
}

const box = (name: string) => within(screen.getByRole('group', { name: 'Modules' })).getByRole('checkbox', { name });
const count = () => within(screen.getByRole('group', { name: 'Modules' })).getByText(/modules selected/);

describe('the module tree', () => {
  it('starts with everything checked and counts modules and topics', async () => {
    backend();
    await loaded();
    for (const name of ['Unit A', 'A.1', 'A.2', 'Unit B']) expect(box(name)).toBeChecked();
    expect(count()).toHaveTextContent('4 of 4 modules selected, 10 topics');
  });

  it('checks a module’s sub-modules with it, and unchecks them with it', async () => {
    backend();
    const { user } = await loaded();
    await user.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect(count()).toHaveTextContent('0 of 4 modules selected, 0 topics');

    await user.click(box('Unit A'));
    expect(box('Unit A')).toBeChecked();
    expect(box('A.1')).toBeChecked();
    expect(box('A.2')).toBeChecked();
    expect(box('Unit B')).not.toBeChecked();
    expect(count()).toHaveTextContent('3 of 4 modules selected, 6 topics');

    await user.click(box('Unit A'));
    for (const name of ['Unit A', 'A.1', 'A.2']) expect(box(name)).not.toBeChecked();
  });

  it('shows a partly chosen module as mixed, keeps its own topics, and checks all of it on a click', async () => {
    backend();
    const { user } = await loaded();
    await user.click(box('A.2'));
    expect(box('A.2')).not.toBeChecked();
    expect(box('Unit A')).toBePartiallyChecked();
    expect(box('Unit A')).toHaveAttribute('aria-checked', 'mixed');
    expect((box('Unit A') as HTMLInputElement).indeterminate).toBe(true);
    // Unit A's own 2 topics stay, with A.1's 3 and Unit B's 4: the count says so.
    expect(count()).toHaveTextContent('3 of 4 modules selected, 9 topics');

    await user.click(box('Unit A'));
    for (const name of ['Unit A', 'A.1', 'A.2']) expect(box(name)).toBeChecked();
    expect(box('Unit A')).not.toBePartiallyChecked();
    expect(box('Unit A')).not.toHaveAttribute('aria-checked');
  });

  it('checks the parent again once all its sub-modules are checked', async () => {
    backend();
    const { user } = await loaded();
    await user.click(box('A.1'));
    expect(box('Unit A')).toBePartiallyChecked();
    await user.click(box('A.1'));
    expect(box('Unit A')).toBeChecked();
    expect(count()).toHaveTextContent('4 of 4 modules selected, 10 topics');
  });

  it('brings a parent’s own topics along with a sub-module checked alone, and shows the parent mixed', async () => {
    backend();
    const { user } = await loaded();
    await user.click(screen.getByRole('button', { name: 'Deselect All' }));
    await user.click(box('A.1'));
    expect(box('A.1')).toBeChecked();
    expect(box('Unit A')).toBePartiallyChecked();
    expect(count()).toHaveTextContent('2 of 4 modules selected, 5 topics');
  });

  it('sends exactly the modules shown as checked, and the sub-modules left out of them', async () => {
    const api = backend();
    const { user } = await loaded();
    await user.click(box('A.2'));
    await user.click(screen.getByRole('button', { name: 'Run CTPO' }));
    await waitFor(() => expect(api.requestsTo('/api/run-tests')).toHaveLength(1));
    expect(api.requestsTo('/api/run-tests')[0]?.body).toMatchObject({
      MODULES: [10, 11, 20],
      EXCLUDE_MODULES: [12],
      MODULE_TITLES: { 10: 'Unit A', 20: 'Unit B', 12: 'A.2' },
    });
  });

  it('sends no module and leaves nothing out when only course-wide items are chosen', async () => {
    const api = backend();
    const { user } = await loaded();
    await user.click(box('Unit A'));
    await user.click(box('Unit B'));
    expect(count()).toHaveTextContent('0 of 4 modules selected, 0 topics');
    await user.click(screen.getByRole('button', { name: 'Run CTPO' }));
    await waitFor(() => expect(api.requestsTo('/api/run-tests')).toHaveLength(1));
    const body = api.requestsTo('/api/run-tests')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ MODULES: [], SCOPES: ['assignments', 'quizzes', 'discussions', 'announcements', 'overview', 'gradebook'] });
    expect(body).not.toHaveProperty('EXCLUDE_MODULES');
  });
});

describe('a module with no topics of its own', () => {
  const HOLDER = { Modules: [{ ModuleId: 1, Title: 'Holder', Topics: [], Modules: [{ ModuleId: 2, Title: 'Inner', Topics: topics(2, 20), Modules: [] }] }] };

  it('is unchecked, not mixed, once nothing inside it is checked', async () => {
    new FakeBackend().on('POST', '/api/toc', () => json(HOLDER)).install();
    const { user } = await loaded();
    await user.click(box('Inner'));
    expect(box('Holder')).not.toBeChecked();
    expect(box('Holder')).not.toBePartiallyChecked();
    expect(count()).toHaveTextContent('0 of 2 modules selected, 0 topics');
  });
});

describe('the course-wide items', () => {
  const scopes = () => within(screen.getByRole('group', { name: 'Course-wide items' }));

  it('are one more group, each checked at first', async () => {
    backend();
    await loaded();
    const names = scopes()
      .getAllByRole('checkbox')
      .map((item) => item.closest('label')?.textContent);
    expect(names).toEqual(['Assignments', 'Quizzes', 'Discussions', 'Announcements', 'Course overview', 'Gradebook']);
    expect(scopes().getAllByRole('checkbox').every((item) => (item as HTMLInputElement).checked)).toBe(true);
  });

  it('go as SCOPES, none when all are unchecked', async () => {
    const api = backend();
    const { user } = await loaded();
    for (const item of scopes().getAllByRole('checkbox')) await user.click(item);
    await user.click(screen.getByRole('button', { name: 'Run CTPO' }));
    await waitFor(() => expect(api.requestsTo('/api/run-tests')).toHaveLength(1));
    expect(api.requestsTo('/api/run-tests')[0]?.body).toMatchObject({ SCOPES: [] });
  });

  it('are all checked again when the modules are loaded again', async () => {
    backend();
    const { user } = await loaded();
    await user.click(scopes().getByRole('checkbox', { name: 'Gradebook' }));
    expect(scopes().getByRole('checkbox', { name: 'Gradebook' })).not.toBeChecked();
    await user.type(screen.getByLabelText('Client'), ' Inc');
    await user.click(screen.getByRole('button', { name: 'Choose Modules' }));
    await waitFor(() => expect(scopes().getByRole('checkbox', { name: 'Gradebook' })).toBeChecked());
  });
});
