// The module picker shows what a run will test: a module takes its sub-modules (as the API does), a
// partly chosen module is mixed, the count says modules and topics, and the course-wide items are one
// more group, all checked at first. What is sent is what is shown.
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

  it('shows a partly chosen module as mixed, leaves its own topics out, and checks all of it on a click', async () => {
    backend();
    const { user } = await loaded();
    await user.click(box('A.2'));
    expect(box('A.2')).not.toBeChecked();
    expect(box('Unit A')).toBePartiallyChecked();
    expect(box('Unit A')).not.toBeChecked();
    // Unit A's own 2 topics would bring A.2 along: they are out, and the count says so.
    expect(count()).toHaveTextContent('2 of 4 modules selected, 7 topics');

    await user.click(box('Unit A'));
    for (const name of ['Unit A', 'A.1', 'A.2']) expect(box(name)).toBeChecked();
    expect(box('Unit A')).not.toBePartiallyChecked();
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

  it('sends exactly the modules shown as checked', async () => {
    const api = backend();
    const { user } = await loaded();
    await user.click(box('A.2'));
    await user.click(screen.getByRole('button', { name: 'Run CTPO' }));
    await waitFor(() => expect(api.requestsTo('/api/run-tests')).toHaveLength(1));
    expect(api.requestsTo('/api/run-tests')[0]?.body).toMatchObject({ MODULES: [11, 20] });
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
