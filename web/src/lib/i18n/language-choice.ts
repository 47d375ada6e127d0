// The language picked in the menu, remembered on this browser: it wins over every other hint.
import { isSupportedLocale, type LocaleTag } from '@/lib/i18n/locale';

const STORAGE_KEY = 'ctpo.language';

export function loadLanguageChoice(): LocaleTag | null {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return isSupportedLocale(stored) ? stored : null;
  } catch {
    // Storage disabled: no remembered choice, the other hints decide.
    return null;
  }
}

export function saveLanguageChoice(locale: LocaleTag): void {
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch (error) {
    console.warn('CTPO: the language choice could not be remembered; it lasts until this page closes', error);
  }
}
