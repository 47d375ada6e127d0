// Each language named in itself (an endonym), as the language menu lists them: someone who cannot
// read the current language still finds their own.
import { bcp47Tag, type LocaleTag } from '@/lib/i18n/locale';

// Intl names Ontario French "français (ON)", and the Chinese catalogues by country rather than by
// script, which is what a reader picks by.
const NAMED_BY_US: Partial<Record<LocaleTag, string>> = {
  'fr-ON': 'Français (Ontario)',
  'zh-CN': '中文（简体）',
  'zh-TW': '中文（繁體）',
};

// Browsers ship trimmed locale data: Chromium has none for Welsh, Hawaiian or Maori and answers
// in English ("Welsh"). These are the names the languages give themselves.
const WHEN_INTL_LACKS_THE_LANGUAGE: Partial<Record<LocaleTag, string>> = {
  cy: 'Cymraeg',
  haw: 'ʻŌlelo Hawaiʻi',
  mi: 'Māori',
};

function capitalise(text: string, locale: string): string {
  const first = text.codePointAt(0);
  if (first === undefined) return text;
  const head = String.fromCodePoint(first);
  return head.toLocaleUpperCase(locale) + text.slice(head.length);
}

export function languageName(locale: LocaleTag): string {
  const named = NAMED_BY_US[locale];
  if (named) return named;
  const tag = bcp47Tag(locale);
  const fallback = WHEN_INTL_LACKS_THE_LANGUAGE[locale];
  if (fallback && Intl.DisplayNames.supportedLocalesOf([tag]).length === 0) return fallback;
  try {
    // "standard" gives "English (Canada)" rather than "Canadian English": the variants line up.
    const name = new Intl.DisplayNames([tag], { type: 'language', languageDisplay: 'standard', fallback: 'none' }).of(tag);
    if (name) return capitalise(name, tag);
  } catch {
    // An engine without DisplayNames: the fallback table, or the tag itself, still names it.
  }
  return fallback ?? locale;
}
