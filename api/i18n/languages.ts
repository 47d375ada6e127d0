// The 23 languages CTPO speaks, as the app names them (web/src/lib/i18n/locale.ts holds the app's
// own copy; a test keeps the two lists equal). `en` is US English, the base every other catalogue
// is checked against.

export const LANGUAGES = [
  'ar', 'cy', 'da', 'de', 'en', 'en-CA', 'en-GB', 'es-ES', 'es-419', 'fr-CA', 'fr-FR', 'fr-ON',
  'haw', 'hi', 'ja', 'ko', 'mi', 'nl', 'pt-BR', 'sv', 'tr', 'zh-CN', 'zh-TW',
] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

// "en" is US English; fr-ON is Brightspace's tag for Ontario French ("ON" is no region code), so Intl
// and the document are told fr-CA, the nearest real tag.
const BCP47: Partial<Record<Language, string>> = { en: 'en-US', 'fr-ON': 'fr-CA' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The tag for `<html lang>` and for Intl's number, date and plural rules. */
export function bcp47Of(language: Language): string {
  return BCP47[language] ?? language;
}

export function directionOf(language: Language): 'ltr' | 'rtl' {
  return language === 'ar' ? 'rtl' : 'ltr';
}

/** A language by its exact tag, any letter case ("fr-fr", "EN-gb"); undefined when not one of ours. */
export function languageOf(tag: unknown): Language | undefined {
  if (typeof tag !== 'string') return undefined;
  const wanted = tag.trim().replaceAll('_', '-').toLowerCase();
  return LANGUAGES.find((language) => language.toLowerCase() === wanted || bcp47Of(language).toLowerCase() === wanted);
}

// English speakers of these regions write British spelling; Spanish of these regions follows Spain.
const BRITISH_REGIONS = new Set(['GB', 'UK', 'IE', 'AU', 'NZ', 'ZA', 'IN', 'SG', 'MT', 'GI', 'IM', 'JE', 'GG']);
const SPAIN_REGIONS = new Set(['ES', 'EA', 'IC', 'GQ', 'AD']);

/**
 * Our closest language for any BCP 47 tag, as the app chooses its catalogue: the exact tag first,
 * else by Brightspace's language packs (plain fr is Canadian French, es Latin American Spanish,
 * pt Brazilian Portuguese; zh by script). Undefined when we do not speak the language at all.
 */
export function closestLanguage(tag: string): Language | undefined {
  const exact = languageOf(tag);
  if (exact !== undefined) return exact;
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(tag.trim().replaceAll('_', '-'));
  } catch {
    return undefined;
  }
  const region = locale.region?.toUpperCase();
  switch (locale.language) {
    case 'en':
      return region === 'CA' ? 'en-CA' : region !== undefined && BRITISH_REGIONS.has(region) ? 'en-GB' : 'en';
    case 'fr':
      return region === undefined || region === 'CA' ? 'fr-CA' : 'fr-FR';
    case 'es':
      return region !== undefined && SPAIN_REGIONS.has(region) ? 'es-ES' : 'es-419';
    case 'zh':
      return locale.maximize().script === 'Hant' ? 'zh-TW' : 'zh-CN';
    case 'pt':
      return 'pt-BR';
    default:
      return languageOf(locale.language);
  }
}

/** The best of an Accept-Language header's languages that we speak, by its q-values. */
export function languageOfAcceptHeader(header: string | undefined): Language | undefined {
  if (header === undefined || header.length > 1000) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = parameters.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const language = closestLanguage(tag);
    if (language !== undefined) return language;
  }
  return undefined;
}
