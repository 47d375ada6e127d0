// The built-in message catalogues. English is part of the initial bundle (the default, and the
// base every other catalogue falls back to); each other catalogue is its own chunk, downloaded
// only when that language is shown.
import * as z from 'zod/mini';
import en from '@/locales/en.json';
import { SUPPORTED_LOCALES, isSupportedLocale, type LocaleTag } from '@/lib/i18n/locale';
import type { MessageId } from '@/lib/i18n/message-ids';

export type Messages = Readonly<Record<string, string>>;

export const ENGLISH_MESSAGES: Readonly<Record<MessageId, string>> = en;

// Vite makes one lazy chunk per file; whichever translations exist at build time are picked up.
const lazyCatalogues = import.meta.glob<Messages>(['../../locales/*.json', '!../../locales/en.json'], { import: 'default' });

const loaders = new Map<LocaleTag, () => Promise<Messages>>();
for (const [path, load] of Object.entries(lazyCatalogues)) {
  const tag = /([^/]+)\.json$/.exec(path)?.[1];
  if (isSupportedLocale(tag)) loaders.set(tag, load);
}

/** The locales with a catalogue in this build, in the menu's order. */
export const AVAILABLE_LOCALES: readonly LocaleTag[] = SUPPORTED_LOCALES.filter((locale) => locale === 'en' || loaders.has(locale));

/** Only strings are messages; anything else in a file is left out rather than shown. */
export const messageTable = z.pipe(
  z.record(z.string(), z.unknown()),
  z.transform((entries) => Object.fromEntries(Object.entries(entries).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))),
);

/** The messages of a JSON object of message id -> text; none when it is not one. */
export function messagesFrom(value: unknown): Record<string, string> {
  const table = messageTable.safeParse(value);
  return table.success ? table.data : {};
}

export async function loadCatalogue(locale: LocaleTag): Promise<Messages> {
  if (locale === 'en') return ENGLISH_MESSAGES;
  const load = loaders.get(locale);
  if (!load) throw new Error(`No catalogue for ${locale} in this build.`);
  return messagesFrom(await load());
}
