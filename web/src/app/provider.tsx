import type { ReactNode } from 'react';
import { I18nProvider } from '@/lib/i18n/i18n-provider';
import { CrashBoundary } from '@/app/crash-boundary';

/** Everything every screen needs around it: messages in the user's language, and a net for crashes. */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <I18nProvider>
      <CrashBoundary>{children}</CrashBoundary>
    </I18nProvider>
  );
}
