// The one place that picks the locale and its messages. English is bundled (default and last
// fallback); other catalogues, a language menu and right-to-left layout plug in here later.
import { useEffect, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import en from '@/locales/en.json';
import { DEFAULT_LOCALE, resolveLocale } from '@/lib/i18n/locale';

interface I18nProviderProps {
  children: ReactNode;
  /** The configured fallback language (config.json `i18n.defaultLanguage`), when known. */
  fallbackLanguage?: string;
}

export function I18nProvider({ children, fallbackLanguage }: I18nProviderProps) {
  const locale = resolveLocale([document.documentElement.lang, fallbackLanguage]);

  useEffect(() => {
    document.documentElement.lang = locale;
    document.documentElement.dir = 'ltr';
  }, [locale]);

  return (
    <IntlProvider locale={locale} defaultLocale={DEFAULT_LOCALE} messages={en}>
      {children}
    </IntlProvider>
  );
}
