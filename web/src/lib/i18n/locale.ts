// Which catalogue to show. English is the only one for now; the order of candidates follows the
// spec: the document's language, the configured fallback language, en-us, then en.

export const SUPPORTED_LOCALES = ['en'] as const;
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: SupportedLocale = 'en';

/** The first candidate we have a catalogue for, matching a region tag (fr-CA) to its language (fr). */
export function resolveLocale(
  candidates: readonly (string | null | undefined)[],
  supported: readonly string[] = SUPPORTED_LOCALES,
): string {
  const known = new Map(supported.map((tag) => [tag.toLowerCase(), tag]));
  for (const candidate of [...candidates, 'en-us', 'en']) {
    if (!candidate) continue;
    const tag = candidate.trim().toLowerCase().replaceAll('_', '-');
    const exact = known.get(tag);
    if (exact) return exact;
    const language = known.get(tag.split('-')[0] ?? '');
    if (language) return language;
  }
  return DEFAULT_LOCALE;
}
