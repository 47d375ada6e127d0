import type { ReactNode } from 'react';
import { I18nProvider } from '@/lib/i18n/i18n-provider';
import type { RuntimeConfig } from '@/lib/runtime-config';
import { CrashBoundary } from '@/app/crash-boundary';

interface AppProviderProps {
  children: ReactNode;
  /** config.json's i18n section, once the config has loaded. */
  i18n?: RuntimeConfig['i18n'] | undefined;
}

/** Everything every screen needs around it: messages in the user's language, and a net for crashes. */
export function AppProvider({ children, i18n }: AppProviderProps) {
  return (
    <I18nProvider fallbackLanguage={i18n?.defaultLanguage} batchUrl={i18n?.batchUrl} collectionUrl={i18n?.collectionUrl}>
      <CrashBoundary>{children}</CrashBoundary>
    </I18nProvider>
  );
}
