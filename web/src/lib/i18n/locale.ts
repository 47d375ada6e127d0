// Which catalogue to show. The tags are the catalogue file names in web/src/locales ("en" is US
// English, the base). Candidates are tried in the seed's order (the document's language, the
// configured fallback language, en-us, then en), each mapped to the closest catalogue we have.

export const SUPPORTED_LOCALES = [
  'ar',
  'cy',
  'da',
  'de',
  'en',
  'en-CA',
  'en-GB',
  'es-ES',
  'es-419',
  'fr-CA',
  'fr-FR',
  'fr-ON',
  'haw',
  'hi',
  'ja',
  'ko',
  'mi',
  'nl',
  'pt-BR',
  'sv',
  'tr',
  'zh-CN',
  'zh-TW',
] as const;
export type LocaleTag = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: LocaleTag = 'en';

// "en" is the US English catalogue; fr-ON is Brightspace's own tag for Ontario French ("ON" is no
// region code), so the document and Intl are told fr-CA, the nearest real tag.
const BCP47_TAGS: Partial<Record<LocaleTag, string>> = { en: 'en-US', 'fr-ON': 'fr-CA' };

// English speakers of these regions write British spelling (colour, organise) more than American.
const BRITISH_ENGLISH_REGIONS = new Set(['GB', 'UK', 'IE', 'AU', 'NZ', 'ZA', 'IN', 'SG', 'MT', 'GI', 'IM', 'JE', 'GG']);
// Spanish of Spain and of the places that follow its norm; every other Spanish is Latin American.
const SPAIN_SPANISH_REGIONS = new Set(['ES', 'EA', 'IC', 'GQ', 'AD']);
const RIGHT_TO_LEFT_SCRIPTS = new Set(['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm', 'Rohg', 'Mand', 'Samr']);

export function isSupportedLocale(value: unknown): value is LocaleTag {
  return typeof value === 'string' && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

/** The tag for `<html lang>` and for Intl's number and date formats. */
export function bcp47Tag(locale: LocaleTag): string {
  return BCP47_TAGS[locale] ?? locale;
}

export function textDirection(locale: LocaleTag): 'ltr' | 'rtl' {
  const script = new Intl.Locale(bcp47Tag(locale)).maximize().script;
  return script && RIGHT_TO_LEFT_SCRIPTS.has(script) ? 'rtl' : 'ltr';
}

function parseTag(candidate: string): Intl.Locale | undefined {
  try {
    return new Intl.Locale(candidate.trim().replaceAll('_', '-'));
  } catch {
    return undefined;
  }
}

/**
 * The catalogues that suit a language tag, best first. An exact tag wins; otherwise the mapping
 * follows Brightspace's own language packs, whose plain "fr" is Canadian French, "es" Latin
 * American Spanish and "pt" Brazilian Portuguese:
 * - fr: Canada and plain fr -> fr-CA; any other region (fr-BE, fr-CH, fr-SN...) -> fr-FR, whose
 *   usage is closer than Quebec's; fr-ON only when asked for by name.
 * - es: Spain (and Equatorial Guinea, Andorra, the Canaries, Ceuta) -> es-ES; plain es and every
 *   other region (Americas, US, es-419) -> es-419.
 * - en: Canada -> en-CA; Britain, Ireland, Australia, New Zealand, India, South Africa... -> en-GB;
 *   the rest -> en (US).
 * - zh: traditional script (zh-Hant, zh-TW, zh-HK, zh-MO) -> zh-TW; otherwise -> zh-CN.
 * - pt: every region -> pt-BR, the only Portuguese catalogue.
 * The other variants of the same language follow, so a missing catalogue degrades to a sibling.
 */
export function catalogueCandidates(candidate: string): LocaleTag[] {
  const tag = candidate.trim().replaceAll('_', '-').toLowerCase();
  const exact = SUPPORTED_LOCALES.find((locale) => locale.toLowerCase() === tag || bcp47Tag(locale).toLowerCase() === tag);
  const locale = parseTag(candidate);
  if (!locale) return exact ? [exact] : [];
  const region = locale.region?.toUpperCase();

  let preferred: LocaleTag[];
  switch (locale.language) {
    case 'en':
      preferred =
        region === 'CA' ? ['en-CA', 'en', 'en-GB'] : region && BRITISH_ENGLISH_REGIONS.has(region) ? ['en-GB', 'en', 'en-CA'] : ['en', 'en-CA', 'en-GB'];
      break;
    case 'fr':
      preferred = !region || region === 'CA' ? ['fr-CA', 'fr-FR', 'fr-ON'] : ['fr-FR', 'fr-CA', 'fr-ON'];
      break;
    case 'es':
      preferred = region && SPAIN_SPANISH_REGIONS.has(region) ? ['es-ES', 'es-419'] : ['es-419', 'es-ES'];
      break;
    case 'zh':
      preferred = locale.maximize().script === 'Hant' ? ['zh-TW', 'zh-CN'] : ['zh-CN', 'zh-TW'];
      break;
    case 'pt':
      preferred = ['pt-BR'];
      break;
    default:
      preferred = SUPPORTED_LOCALES.filter((supported) => supported === locale.language);
  }
  return exact ? [exact, ...preferred.filter((other) => other !== exact)] : preferred;
}

/**
 * The first candidate we have a catalogue for, then en-us, then en. Empty and malformed candidates
 * are skipped; `available` is the catalogues that can be shown (all 23 once translated).
 */
export function resolveLocale(
  candidates: readonly (string | null | undefined)[],
  available: readonly LocaleTag[] = SUPPORTED_LOCALES,
): LocaleTag {
  for (const candidate of [...candidates, 'en-us', 'en']) {
    if (!candidate?.trim()) continue;
    const match = catalogueCandidates(candidate).find((locale) => available.includes(locale));
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}
