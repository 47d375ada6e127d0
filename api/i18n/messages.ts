// Every text the server shows a person (error answers, job failure reasons, findings, the report)
// is a Message: an id from the English catalogue (./en/) and its values, rendered in the run's or
// the caller's language only when it is shown. Checks stay language-free, a finding's identity
// never depends on wording, and a translation is a catalogue file (./locales/<tag>.json) away.
import { readFileSync } from 'node:fs';
import { IntlMessageFormat } from 'intl-messageformat';
import { english, type MessageId } from './en/catalogue.ts';
import { bcp47Of, DEFAULT_LANGUAGE, type Language } from './languages.ts';

export type { MessageId };
export type MessageValue = string | number | Message;
export interface Message {
  id: MessageId;
  values?: Record<string, MessageValue>;
}

/** A message to render later, in whatever language it is shown in. */
export function msg(id: MessageId, values?: Record<string, MessageValue>): Message {
  return values === undefined ? { id } : { id, values };
}

export function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && typeof (value as Message).id === 'string' && (value as Message).id in english;
}

const catalogues = new Map<Language, Record<string, string>>([[DEFAULT_LANGUAGE, english]]);

/** A language's catalogue; messages it lacks fall back to English. */
function catalogueOf(language: Language): Record<string, string> {
  let catalogue = catalogues.get(language);
  if (catalogue === undefined) {
    try {
      catalogue = JSON.parse(readFileSync(new URL(`./locales/${language}.json`, import.meta.url), 'utf8')) as Record<string, string>;
    } catch {
      catalogue = {};
    }
    catalogues.set(language, catalogue);
  }
  return catalogue;
}

const formats = new Map<string, IntlMessageFormat>();

function formatOf(language: Language, id: MessageId): IntlMessageFormat {
  const key = `${language}\u0000${id}`;
  let format = formats.get(key);
  if (format === undefined) {
    const translated = language === DEFAULT_LANGUAGE ? undefined : catalogueOf(language)[id];
    try {
      format = new IntlMessageFormat(translated ?? english[id], bcp47Of(language), undefined, { ignoreTag: true });
    } catch {
      // A translation that does not parse gives way to English (the catalogue tests refuse it).
      format = new IntlMessageFormat(english[id], bcp47Of(DEFAULT_LANGUAGE), undefined, { ignoreTag: true });
    }
    formats.set(key, format);
  }
  return format;
}

/** Several messages as one, each after the other (e.g. every problem of a request). */
export function joinMessages(messages: readonly Message[]): Message {
  if (messages.length === 0) return msg('common.empty');
  return messages.slice(1).reduce((joined, next) => msg('common.join', { first: joined, second: next }), messages[0]!);
}

/** The message as text in a language (English by default). */
export function formatMessage(message: Message, language: Language = DEFAULT_LANGUAGE): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(message.values ?? {})) {
    values[name] = typeof value === 'object' ? formatMessage(value, language) : value;
  }
  const text = formatOf(language, message.id).format(values);
  return Array.isArray(text) ? text.join('') : String(text);
}

/** A translator bound to one language, for writers that render many messages. */
export function translator(language: Language = DEFAULT_LANGUAGE): (message: Message | MessageId, values?: Record<string, MessageValue>) => string {
  return (message, values) => formatMessage(typeof message === 'string' ? msg(message, values) : message, language);
}
