// The report's name and fix of each check, in the interface's language: copied from the server's
// catalogues (web/src/locales/checks/, `npm run messages:checks`) and read the way the report reads
// them (api/checks/catalogue.ts checkTitle, api/report/present.ts fixOf; a test holds them equal).
// Each language is its own chunk, fetched when the Findings panel first needs it.
import { IntlMessageFormat } from 'intl-messageformat';
import { bcp47Tag, type LocaleTag } from '@/lib/i18n/locale';
import { messagesFrom, type Messages } from '@/lib/i18n/catalogues';

const catalogues = import.meta.glob<unknown>('../../locales/checks/*.json', { import: 'default' });

function loaderOf(locale: string): (() => Promise<unknown>) | undefined {
  return catalogues[`../../locales/checks/${locale}.json`];
}

/** The check texts of one language, English beneath for any it lacks. */
export interface CheckMessages {
  locale: LocaleTag;
  messages: Messages;
}

/** Never fails: a language that cannot be fetched gives English, and English none at all gives the ids. */
export async function loadCheckMessages(locale: LocaleTag): Promise<CheckMessages> {
  const read = async (tag: string) => {
    try {
      return messagesFrom(await loaderOf(tag)?.());
    } catch (error) {
      console.error(`CTPO: the ${tag} check names could not be loaded`, error instanceof Error ? error.message : error);
      return {};
    }
  };
  const [english, own] = await Promise.all([read('en'), locale === 'en' ? Promise.resolve({}) : read(locale)]);
  return { locale, messages: { ...english, ...own } };
}

function format(texts: CheckMessages, id: string, values?: Record<string, string>): string | null {
  const text = texts.messages[id];
  if (text === undefined) return null;
  try {
    const formatted = new IntlMessageFormat(text, bcp47Tag(texts.locale), undefined, { ignoreTag: true }).format(values);
    return Array.isArray(formatted) ? formatted.join('') : String(formatted);
  } catch {
    return null;
  }
}

/** A check's short name: its own, else "Accessibility: <rule>" for an axe rule, else its id. */
export function checkTitle(texts: CheckMessages, check: string): string {
  const own = format(texts, `check.${check}`);
  if (own !== null) return own;
  if (check.startsWith('a11y.')) return format(texts, 'check.a11y-rule', { rule: check.slice('a11y.'.length) }) ?? check;
  return check;
}

/** How to fix what a check found: its own advice, else the advice for any axe rule, else none. */
export function checkFix(texts: CheckMessages, check: string): string | null {
  const own = format(texts, `fix.${check}`);
  if (own !== null) return own;
  return check.startsWith('a11y.') ? format(texts, 'fix.a11y-rule') : null;
}
