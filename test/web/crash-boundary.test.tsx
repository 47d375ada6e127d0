import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { renderWithIntl } from './support/render-with-intl';

function Broken(): never {
  throw new Error('render bug');
}

describe('a page that crashes while rendering', () => {
  it('shows a way forward instead of a blank page, and logs the error', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithIntl(
      <AppProvider>
        <Broken />
      </AppProvider>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong on this page. Reload it to try again.');
    expect(logged).toHaveBeenCalledWith('CTPO: the page crashed', expect.any(Error));
  });
});
