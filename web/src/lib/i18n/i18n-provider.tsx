// The one place that picks the language and its messages, and tells the document (lang, dir).
//
// Which language: the one chosen in the menu (remembered on this browser) wins; then the seed's
// order: the document's language, the configured fallback language, en-us, en. The document's
// language is the `lang` the page was served with; CTPO's own index.html sets none, so the
// browser's languages (navigator.languages) stand for it, still ahead of the configured fallback,
// which is for readers whose languages CTPO does not have.
//
// English is bundled and is the base of every catalogue (a missing message shows in English,
// never as its id). Another catalogue is fetched when first shown: at start nothing renders until
// it has arrived; on a switch the current language stays until the new one is ready.
import { useCallback, useEffect, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { setRequestLanguage } from '@/lib/api-client';
import { AVAILABLE_LOCALES, ENGLISH_MESSAGES, loadCatalogue, type Messages } from '@/lib/i18n/catalogues';
import { loadLanguageChoice, saveLanguageChoice } from '@/lib/i18n/language-choice';
import { bcp47Tag, resolveLocale, textDirection, type LocaleTag } from '@/lib/i18n/locale';
import { guardMessages } from '@/lib/i18n/message-guard';
import { MessageOverrideLoader } from '@/lib/i18n/message-overrides';
import { RICH_TEXT_ELEMENTS } from '@/lib/i18n/rich-text';
import { LanguageContext, type LanguageSettings } from '@/lib/i18n/use-language';

interface I18nProviderProps {
  children: ReactNode;
  /** The configured fallback language (config.json `i18n.defaultLanguage`), once known. */
  fallbackLanguage?: string | undefined;
  /** The message-override addresses (config.json `i18n.batchUrl`, `i18n.collectionUrl`), once known. */
  batchUrl?: string | undefined;
  collectionUrl?: string | undefined;
}

function browserLanguages(): string[] {
  return navigator.languages?.length ? [...navigator.languages] : [navigator.language];
}

/**
 * Sets the document's lang and dir while mounted, and puts back what was there before. In the same
 * commit as the text (a layout effect): a screen reader never meets the new language's words under
 * the old language's lang.
 */
function useDocumentLanguage(locale: LocaleTag | null): void {
  useLayoutEffect(() => {
    if (!locale) return;
    const root = document.documentElement;
    const before = { lang: root.getAttribute('lang'), dir: root.getAttribute('dir') };
    root.setAttribute('lang', bcp47Tag(locale));
    root.setAttribute('dir', textDirection(locale));
    return () => {
      for (const [name, value] of Object.entries(before)) {
        if (value === null) root.removeAttribute(name);
        else root.setAttribute(name, value);
      }
    };
  }, [locale]);
}

export function I18nProvider({ children, fallbackLanguage, batchUrl, collectionUrl }: I18nProviderProps) {
  const [documentLanguage] = useState(() => document.documentElement.getAttribute('lang'));
  const [userLanguages] = useState(browserLanguages);
  const [choice, setChoice] = useState(loadLanguageChoice);
  const [catalogues, setCatalogues] = useState<Partial<Record<LocaleTag, Messages>>>({ en: ENGLISH_MESSAGES });
  const [broken, setBroken] = useState<ReadonlySet<LocaleTag>>(() => new Set());
  const [overrides, setOverrides] = useState<Partial<Record<LocaleTag, Messages>>>({});

  const showable = useMemo(() => AVAILABLE_LOCALES.filter((locale) => !broken.has(locale)), [broken]);
  const locale = resolveLocale([choice, documentLanguage, ...userLanguages, fallbackLanguage], showable);

  // What is on screen: the wanted language once its catalogue is here, until then the one before.
  const [shown, setShown] = useState<LocaleTag | null>(null);
  if (catalogues[locale] && shown !== locale) setShown(locale);

  useEffect(() => {
    if (catalogues[locale]) return;
    loadCatalogue(locale).then(
      (messages) => setCatalogues((loaded) => ({ ...loaded, [locale]: messages })),
      (error: unknown) => {
        console.error(`CTPO: the ${locale} messages could not be loaded; showing the next language instead`, error);
        setBroken((previous) => new Set(previous).add(locale));
      },
    );
  }, [locale, catalogues]);

  const loader = useMemo(
    () => (batchUrl || collectionUrl ? new MessageOverrideLoader({ ...(batchUrl ? { batchUrl } : {}), ...(collectionUrl ? { collectionUrl } : {}) }) : null),
    [batchUrl, collectionUrl],
  );
  useEffect(() => {
    if (!loader || !shown) return;
    void loader.load(shown, (messages) => setOverrides((previous) => ({ ...previous, [shown]: messages })));
  }, [loader, shown]);

  useDocumentLanguage(shown);
  // The server answers in the language on screen: its errors and the reasons of failed runs.
  useEffect(() => {
    if (shown) setRequestLanguage(shown);
  }, [shown]);

  const catalogue = shown ? catalogues[shown] : undefined;
  const override = shown ? overrides[shown] : undefined;
  const messages = useMemo(() => (catalogue ? guardMessages(ENGLISH_MESSAGES, catalogue, override) : null), [catalogue, override]);

  const chooseLocale = useCallback((next: LocaleTag) => {
    saveLanguageChoice(next);
    setChoice(next);
  }, []);
  const settings = useMemo<LanguageSettings>(() => ({ locale, locales: showable, chooseLocale }), [locale, showable, chooseLocale]);

  if (!shown || !messages) return null;
  return (
    <LanguageContext value={settings}>
      <IntlProvider locale={bcp47Tag(shown)} defaultLocale="en-US" messages={messages} defaultRichTextElements={RICH_TEXT_ELEMENTS}>
        {children}
      </IntlProvider>
    </LanguageContext>
  );
}
