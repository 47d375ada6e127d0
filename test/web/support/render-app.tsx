import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '@/app/app';

/** Renders the whole app as main.tsx does. */
export function renderApp() {
  const user = userEvent.setup();
  const view = render(<App />);
  return { user, ...view };
}

/** Waits for the signed-in form, the state most tests start from. */
export async function renderSignedInApp() {
  const rendered = renderApp();
  await screen.findByRole('heading', { level: 1, name: 'CTPO: Course Testing Protocol Observer' });
  await screen.findByRole('button', { name: 'Sign out' });
  return rendered;
}
