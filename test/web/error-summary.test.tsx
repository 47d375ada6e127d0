import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend } from './support/fake-backend';
import { renderSignedInApp } from './support/render-app';
import { seedSignedInUser } from './support/session';

beforeEach(() => {
  localStorage.clear();
  seedSignedInUser();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  new FakeBackend().install();
});
afterEach(() => {
  localStorage.clear();
});

const summary = () => screen.getByRole('region', { name: /error(s)? found in the information you submitted/ });

describe('error summary', () => {
  it('appears on a submit attempt with every failing field, and takes focus', async () => {
    const { user } = await renderSignedInApp();
    expect(screen.queryByRole('region', { name: /found in the information/ })).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Client Site URL'), 'school.brightspace.com{Enter}');
    expect(summary()).toHaveAccessibleName('There were 5 errors found in the information you submitted');
    expect(summary()).toHaveFocus();
    expect(within(summary()).getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Brightspace Username is required.',
      'Brightspace Password is required.',
      'URL is not valid.',
      'Org Unit ID is required.',
      'Client is required.',
    ]);
    // Each field shows its own error too.
    expect(screen.getByLabelText('Client')).toHaveAccessibleDescription('Client is required.');
  });

  it('moves focus to the field of the link followed', async () => {
    const { user } = await renderSignedInApp();
    await user.type(screen.getByLabelText('Client'), '{Enter}');
    await user.click(within(summary()).getByRole('link', { name: 'Org Unit ID is required.' }));
    expect(screen.getByLabelText('Org Unit ID')).toHaveFocus();
  });

  it('counts down as fields are fixed, and goes when none fail', async () => {
    const { user } = await renderSignedInApp();
    await user.type(screen.getByLabelText('Brightspace Username'), 'qa{Enter}');
    expect(summary()).toHaveAccessibleName('There were 4 errors found in the information you submitted');

    await user.type(screen.getByLabelText('Brightspace Password'), 'pw');
    await user.type(screen.getByLabelText('Client Site URL'), 'https://school.brightspace.com');
    await user.type(screen.getByLabelText('Org Unit ID'), '6606');
    expect(summary()).toHaveAccessibleName('There was 1 error found in the information you submitted');

    await user.type(screen.getByLabelText('Client'), 'Acme');
    expect(screen.queryByRole('region', { name: /found in the information/ })).not.toBeInTheDocument();
  });
});
