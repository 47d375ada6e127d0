// The active language and the way to change it, for the language menu.
import { createContext, use } from 'react';
import type { LocaleTag } from '@/lib/i18n/locale';

export interface LanguageSettings {
  /** The language chosen or resolved; its messages may still be on their way. */
  locale: LocaleTag;
  /** Every language this build can show, in menu order. */
  locales: readonly LocaleTag[];
  chooseLocale: (locale: LocaleTag) => void;
}

export const LanguageContext = createContext<LanguageSettings | null>(null);

export function useLanguage(): LanguageSettings {
  const settings = use(LanguageContext);
  if (!settings) throw new Error('useLanguage is used outside the I18nProvider.');
  return settings;
}
