import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, FakeBackend, json } from './support/fake-backend';
import { fillForm, VALID_FIELDS } from './support/fill-form';
import { TOC, TOC_TITLES } from './support/fixtures';
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

const chooseModules = () => screen.getByRole('button', { name: 'Choose Modules' });
const HINT = 'Fill in all fields to load modules.';

function backendWithToc(toc: unknown = TOC) {
  return new FakeBackend()
    .on('POST', '/api/toc', () => json(toc))
    .on('GET', '/api/job-status/*', () => json({ status: 'PROVISIONING' }))
    .install();
}

async function loadModules(user: Awaited<ReturnType<typeof renderSignedInApp>>['user']) {
  await fillForm(user);
  await user.click(chooseModules());
  return screen.findByRole('group', { name: 'Modules' });
}

describe('the form', () => {
  it('has the title, the help link and five required fields, the password masked', async () => {
    backendWithToc();
    await renderSignedInApp();
    expect(screen.getByRole('button', { name: 'Need help? Click the link for instructions on how to use CTPO.' })).toBeInTheDocument();
    for (const label of Object.keys(VALID_FIELDS)) {
      expect(screen.getByLabelText(label)).toBeRequired();
    }
    expect(screen.getByLabelText('Brightspace Password')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('Client Site URL')).toHaveAttribute('type', 'url');
  });
});

describe('Choose Modules', () => {
  it('is disabled with the hint until all five fields are filled', async () => {
    backendWithToc();
    const { user } = await renderSignedInApp();
    expect(chooseModules()).toBeDisabled();
    expect(chooseModules()).toHaveAccessibleDescription(HINT);

    const { Client: _client, ...allButClient } = VALID_FIELDS;
    await fillForm(user, allButClient);
    expect(chooseModules()).toBeDisabled();

    await user.type(screen.getByLabelText('Client'), 'Acme');
    expect(chooseModules()).toBeEnabled();
    expect(screen.queryByText(HINT)).not.toBeInTheDocument();
  });

  it('counts a field holding only spaces as empty', async () => {
    backendWithToc();
    const { user } = await renderSignedInApp();
    await fillForm(user, { ...VALID_FIELDS, Client: '   ' });
    expect(chooseModules()).toBeDisabled();
    expect(screen.getByText(HINT)).toBeInTheDocument();
  });

  it('stays disabled while a field is invalid', async () => {
    backendWithToc();
    const { user } = await renderSignedInApp();
    await fillForm(user, { ...VALID_FIELDS, 'Org Unit ID': 'abc' });
    expect(chooseModules()).toBeDisabled();
    await user.tab();
    expect(screen.getByText('Org Unit ID must be a whole number, such as 6606.')).toBeInTheDocument();
  });

  it('posts the course fields with the bearer token and credentials, and shows a spinner meanwhile', async () => {
    const toc = deferred();
    const backend = new FakeBackend().on('POST', '/api/toc', toc.handler).install();
    const { user } = await renderSignedInApp();
    await fillForm(user);
    await user.click(chooseModules());

    expect(await screen.findByRole('status')).toHaveTextContent('Fetching modules…');
    expect(chooseModules()).toBeDisabled();

    const [request] = backend.requestsTo('/api/toc');
    expect(request?.url.href).toBe('https://api.example.ca/api/toc');
    expect(request?.method).toBe('POST');
    expect(request?.headers.get('Authorization')).toBe(`Bearer ${session.accessToken}`);
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    // The server's errors come in the language on screen.
    expect(request?.headers.get('Accept-Language')).toBe('en');
    expect(request?.credentials).toBe('include');
    expect(request?.body).toEqual({
      ORG_UNIT_ID: '6606',
      CLIENT_URL: 'https://school.brightspace.com',
      USER_NAME: 'qa.tester',
      // The password goes exactly as typed.
      PASSWORD: ' s3cret pass ',
      LANGUAGE: 'en',
    });

    toc.resolve(json(TOC));
    await screen.findByRole('group', { name: 'Modules' });
    expect(screen.queryByText('Fetching modules…')).not.toBeInTheDocument();
  });

  it('submits on Enter in a field when the form is complete', async () => {
    const backend = backendWithToc();
    const { user } = await renderSignedInApp();
    await fillForm(user);
    await user.type(screen.getByLabelText('Client'), '{Enter}');
    await screen.findByRole('group', { name: 'Modules' });
    expect(backend.requestsTo('/api/toc')).toHaveLength(1);
  });

  it('is disabled once loaded with the same values, even with spaces added, and re-enabled by an edit', async () => {
    const backend = backendWithToc();
    const { user } = await renderSignedInApp();
    await loadModules(user);
    expect(chooseModules()).toBeDisabled();

    await user.type(screen.getByLabelText('Org Unit ID'), ' ');
    expect(chooseModules()).toBeDisabled();

    await user.type(screen.getByLabelText('Org Unit ID'), '{Backspace}{Backspace}7');
    expect(chooseModules()).toBeEnabled();
    await user.click(chooseModules());
    await waitFor(() => expect(backend.requestsTo('/api/toc')).toHaveLength(2));
    expect(backend.requestsTo('/api/toc')[1]?.body).toMatchObject({ ORG_UNIT_ID: '6607' });
  });
});

describe('the modules', () => {
  it('lists every module with an id and a title, nested ones inside their parent, all selected', async () => {
    backendWithToc();
    const { user } = await renderSignedInApp();
    const group = await loadModules(user);
    const boxes = within(group).getAllByRole('checkbox');
    expect(boxes.map((box) => box.closest('label')?.textContent)).toEqual(TOC_TITLES);
    expect(boxes.every((box) => (box as HTMLInputElement).checked)).toBe(true);
    // How deep each sits: the lists it is in.
    const depth = (box: HTMLElement) => {
      let count = -1;
      for (let list = box.closest('ul'); list; list = list.parentElement?.closest('ul') ?? null) count++;
      return count;
    };
    expect(boxes.map(depth)).toEqual([0, 1, 2, 0]);
    expect(within(group).getByText('4 of 4 modules selected, 1 topic')).toBeInTheDocument();
  });

  it('says so when the course has no modules, and still runs its course-wide items', async () => {
    backendWithToc({ Modules: [] });
    const { user } = await renderSignedInApp();
    const group = await loadModules(user);
    expect(within(group).getByText('This course has no modules to test.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run CTPO' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect(screen.getByRole('button', { name: 'Run CTPO' })).toBeDisabled();
  });

  it('enables Select All and Deselect All only when they would change something', async () => {
    backendWithToc();
    const { user } = await renderSignedInApp();
    await loadModules(user);
    const selectAll = screen.getByRole('button', { name: 'Select All' });
    const deselectAll = screen.getByRole('button', { name: 'Deselect All' });
    const run = screen.getByRole('button', { name: 'Run CTPO' });
    expect(selectAll).toBeDisabled();
    expect(deselectAll).toBeEnabled();

    await user.click(screen.getByRole('checkbox', { name: 'Unit 1: Foundations' }));
    expect(selectAll).toBeEnabled();
    expect(deselectAll).toBeEnabled();
    expect(screen.getByText('3 of 4 modules selected, 1 topic')).toBeInTheDocument();

    // Both buttons choose or clear everything a run can read: the modules and the course-wide items.
    await user.click(deselectAll);
    const modules = within(screen.getByRole('group', { name: 'Modules' }));
    const scopes = within(screen.getByRole('group', { name: 'Course-wide items' }));
    expect(modules.getAllByRole('checkbox').some((box) => (box as HTMLInputElement).checked)).toBe(false);
    expect(scopes.getAllByRole('checkbox').some((box) => (box as HTMLInputElement).checked)).toBe(false);
    expect(deselectAll).toBeDisabled();
    expect(selectAll).toBeEnabled();
    expect(run).toBeDisabled();

    // Course-wide items alone are a run of their own.
    await user.click(scopes.getByRole('checkbox', { name: 'Gradebook' }));
    expect(deselectAll).toBeEnabled();
    expect(run).toBeEnabled();

    await user.click(selectAll);
    expect(modules.getAllByRole('checkbox').every((box) => (box as HTMLInputElement).checked)).toBe(true);
    expect(scopes.getAllByRole('checkbox').every((box) => (box as HTMLInputElement).checked)).toBe(true);
    expect(selectAll).toBeDisabled();
    expect(run).toBeEnabled();
  });

  it('clears the list and the selection when a new load starts', async () => {
    const second = deferred();
    const backend = backendWithToc();
    const { user } = await renderSignedInApp();
    await loadModules(user);
    await user.click(screen.getByRole('button', { name: 'Deselect All' }));

    backend.on('POST', '/api/toc', second.handler);
    await user.type(screen.getByLabelText('Client'), ' Inc');
    await user.click(chooseModules());
    expect(screen.queryByRole('group', { name: 'Modules' })).not.toBeInTheDocument();

    second.resolve(json(TOC));
    const group = await screen.findByRole('group', { name: 'Modules' });
    // The new list starts fully selected, not with the old (empty) selection.
    expect(within(group).getAllByRole('checkbox').every((box) => (box as HTMLInputElement).checked)).toBe(true);
  });
});

describe('a failed table of contents', () => {
  it('shows "Failed to load TOC" with the server’s reason in an alert, and hides the modules', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const backend = backendWithToc();
    const { user } = await renderSignedInApp();
    await loadModules(user);

    backend.on('POST', '/api/toc', () => json({ message: 'Brightspace refused the username or password.', code: 'login_failed' }, 502));
    await user.type(screen.getByLabelText('Brightspace Password'), 'x');
    await user.click(chooseModules());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load TOC');
    expect(alert).toHaveTextContent('Brightspace refused the username or password.');
    expect(screen.queryByRole('group', { name: 'Modules' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run CTPO' })).not.toBeInTheDocument();
  });

  it('shows only the headline when the server gives no reason, and allows a retry with the same values', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const backend = new FakeBackend().on('POST', '/api/toc', () => new Response('Bad gateway', { status: 502 })).install();
    const { user } = await renderSignedInApp();
    await fillForm(user);
    await user.click(chooseModules());
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to load TOC$/);

    const retry = deferred();
    backend.on('POST', '/api/toc', retry.handler);
    expect(chooseModules()).toBeEnabled();
    await user.click(chooseModules());
    // A new load clears the earlier error at once, not when it answers.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Fetching modules…');

    retry.resolve(json(TOC));
    await screen.findByRole('group', { name: 'Modules' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('suggests checking the connection when the API cannot be reached', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    new FakeBackend()
      .on('POST', '/api/toc', () => {
        throw new TypeError('Failed to fetch');
      })
      .install();
    const { user } = await renderSignedInApp();
    await fillForm(user);
    await user.click(chooseModules());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load TOCThe server could not be reached. Check your connection and try again.',
    );
  });

  it('never logs the password', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    new FakeBackend().on('POST', '/api/toc', () => json({ message: 'Login failed', code: 'login_failed' }, 502)).install();
    const { user } = await renderSignedInApp();
    await fillForm(user);
    await user.click(chooseModules());
    await screen.findByRole('alert');
    expect(JSON.stringify(logged.mock.calls)).not.toContain('s3cret');
  });
});

describe('a run and the values its modules were loaded with', () => {
  const OUT_OF_DATE = 'The fields have changed since these modules were loaded. Select Choose Modules to load them again before you run CTPO.';
  const run = () => screen.getByRole('button', { name: 'Run CTPO' });

  it.each([
    ['Brightspace Password', 'x'],
    ['Brightspace Username', '2'],
    ['Client Site URL', '/x'],
    ['Org Unit ID', '7'],
    ['Client', ' Inc'],
  ])('waits, saying why, once %s changes, until the modules are loaded again', async (label, typed) => {
    const backend = backendWithToc();
    backend.on('POST', '/api/run-tests', () => json({ message: 'Started.', taskArn: 'job-1', filename: 'f' }, 202));
    const { user } = await renderSignedInApp();
    await loadModules(user);
    expect(run()).toBeEnabled();
    expect(screen.queryByText(OUT_OF_DATE)).not.toBeInTheDocument();

    await user.type(screen.getByLabelText(label), typed);
    // The list stays to be seen, but a run would use values it was never loaded with.
    expect(screen.getByRole('group', { name: 'Modules' })).toBeInTheDocument();
    expect(run()).toBeDisabled();
    expect(run()).toHaveAccessibleDescription(OUT_OF_DATE);
    expect(screen.getByText(OUT_OF_DATE)).toHaveAttribute('aria-live', 'polite');
    expect(chooseModules()).toBeEnabled();

    await user.click(chooseModules());
    await waitFor(() => expect(run()).toBeEnabled());
    expect(screen.queryByText(OUT_OF_DATE)).not.toBeInTheDocument();
    await user.click(run());
    await waitFor(() => expect(backend.requestsTo('/api/run-tests')).toHaveLength(1));
    // The run and the modules were read with the same values.
    const [toc, started] = [backend.requestsTo('/api/toc')[1]?.body, backend.requestsTo('/api/run-tests')[0]?.body] as Record<string, unknown>[];
    for (const field of ['USER_NAME', 'PASSWORD', 'CLIENT_URL', 'ORG_UNIT_ID']) expect(started?.[field], field).toEqual(toc?.[field]);
  });

  it('runs again without a new load once the field is put back as it was', async () => {
    backendWithToc();
    const { user } = await renderSignedInApp();
    await loadModules(user);
    await user.type(screen.getByLabelText('Brightspace Password'), 'x');
    expect(run()).toBeDisabled();
    await user.type(screen.getByLabelText('Brightspace Password'), '{Backspace}');
    expect(run()).toBeEnabled();
    expect(chooseModules()).toBeDisabled();
  });
});

describe('the course fields', () => {
  it('say where to find the Org Unit ID and the site address', async () => {
    backendWithToc();
    await renderSignedInApp();
    expect(screen.getByLabelText('Org Unit ID')).toHaveAccessibleDescription(
      "The number in the course's address in Brightspace: in …/d2l/home/6606 it is 6606. You can also paste the course's address here.",
    );
    expect(screen.getByLabelText('Client Site URL')).toHaveAccessibleDescription(/^The Brightspace site's address, such as https:\/\/school\.brightspace\.com\./);
  });

  it.each([
    ['Org Unit ID', 'https://school.brightspace.com/d2l/home/6606'],
    ['Client Site URL', 'https://school.brightspace.com/d2l/le/content/6606/viewContent/12/View'],
    ['Org Unit ID', 'https://school.brightspace.com/d2l/lms/dropbox/user/folders_list.d2l?ou=6606&isprv=0'],
  ])('fill both from a course address pasted into %s, and say so', async (label, address) => {
    backendWithToc();
    const { user } = await renderSignedInApp();
    await user.click(screen.getByLabelText(label));
    await user.paste(address);
    expect(screen.getByLabelText('Client Site URL')).toHaveValue('https://school.brightspace.com');
    expect(screen.getByLabelText('Org Unit ID')).toHaveValue('6606');
    expect(screen.getByRole('status')).toHaveTextContent("Filled in from the course's address: Client Site URL https://school.brightspace.com, Org Unit ID 6606.");
  });

  it('leave a site address typed by hand, and any other text, as they are', async () => {
    backendWithToc();
    const { user } = await renderSignedInApp();
    await user.type(screen.getByLabelText('Client Site URL'), 'https://school.brightspace.com/d2l/home/6606');
    expect(screen.getByLabelText('Client Site URL')).toHaveValue('https://school.brightspace.com/d2l/home/6606');
    await user.click(screen.getByLabelText('Org Unit ID'));
    await user.paste('6606');
    expect(screen.getByLabelText('Org Unit ID')).toHaveValue('6606');
    await user.clear(screen.getByLabelText('Client Site URL'));
    await user.paste('https://school.brightspace.com/');
    expect(screen.getByLabelText('Client Site URL')).toHaveValue('https://school.brightspace.com/');
    expect(screen.queryByText(/^Filled in from the course's address/)).not.toBeInTheDocument();
  });

  it('read addresses and numbers left to right, in a right-to-left page too', async () => {
    backendWithToc();
    await renderSignedInApp();
    expect(screen.getByLabelText('Client Site URL')).toHaveAttribute('dir', 'ltr');
    expect(screen.getByLabelText('Org Unit ID')).toHaveAttribute('dir', 'ltr');
    expect(screen.getByLabelText('Client')).not.toHaveAttribute('dir');
  });
});
