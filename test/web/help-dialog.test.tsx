import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend } from './support/fake-backend';
import { renderSignedInApp } from './support/render-app';
import { seedSignedInUser } from './support/session';

const HELP = 'Need help? Click the link for instructions on how to use CTPO.';

beforeEach(() => {
  localStorage.clear();
  seedSignedInUser();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  new FakeBackend().install();
});
afterEach(() => {
  localStorage.clear();
});

async function openHelp() {
  const rendered = await renderSignedInApp();
  const opener = screen.getByRole('button', { name: HELP });
  await rendered.user.click(opener);
  return { ...rendered, opener, dialog: screen.getByRole('dialog', { name: 'How to Use the CTPO Form' }) };
}

describe('help dialog', () => {
  it('lists the five steps, and takes focus', async () => {
    const { dialog } = await openHelp();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const steps = within(dialog).getAllByRole('listitem');
    expect(steps.map((step) => within(step).getByRole('heading').textContent)).toEqual([
      'Enter credentials',
      'Specify the test target',
      'Launch with “Run CTPO”',
      'Watch the job monitor',
      'Review the output',
    ]);
    expect(dialog).toHaveFocus();
  });

  it('keeps focus inside: Tab and Shift+Tab wrap around', async () => {
    const { user, dialog } = await openHelp();
    const close = within(dialog).getByRole('button', { name: 'Close' });
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(close).toHaveFocus();
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('makes the page behind it inert while open', async () => {
    const { user, dialog } = await openHelp();
    const page = screen.getByRole('main', { hidden: true }).closest('body > *');
    expect(page).toHaveAttribute('inert');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(page).not.toHaveAttribute('inert');
  });

  it('closes on Escape and gives focus back to the link', async () => {
    const { user, opener } = await openHelp();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('closes with its Close button and gives focus back to the link', async () => {
    const { user, opener, dialog } = await openHelp();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('opens and closes from the keyboard alone', async () => {
    const { user } = await renderSignedInApp();
    const opener = screen.getByRole('button', { name: HELP });
    opener.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.tab();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});
