import { render, type RenderOptions } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { I18nProvider } from '@/lib/i18n/i18n-provider';

/** Renders a shared component with the app's English messages, as it appears inside the app. */
export function renderWithIntl(ui: ReactElement, options?: RenderOptions) {
  const user = userEvent.setup();
  return { user, ...render(ui, { wrapper: I18nProvider, ...options }) };
}
