// The language menu: a native select (keyboard and screen-reader friendly everywhere), each
// language named in itself. The choice is remembered on this browser and wins over every other hint.
import { useId } from 'react';
import { useIntl } from 'react-intl';
import { languageName } from '@/lib/i18n/language-names';
import { bcp47Tag, isSupportedLocale } from '@/lib/i18n/locale';
import { useLanguage } from '@/lib/i18n/use-language';
import './language-menu.css';

export function LanguageMenu() {
  const intl = useIntl();
  const { locale, locales, chooseLocale } = useLanguage();
  const selectId = useId();
  return (
    <div className="language-menu">
      <label htmlFor={selectId} className="language-menu__label">
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="1.8" />
          <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" fill="none" stroke="currentColor" strokeWidth="1.8" />
        </svg>
        {intl.formatMessage({ id: 'language.label' })}
      </label>
      <select
        id={selectId}
        className="language-menu__select"
        value={locale}
        onChange={(event) => {
          const next = event.target.value;
          if (isSupportedLocale(next)) chooseLocale(next);
        }}
      >
        {locales.map((tag) => (
          <option key={tag} value={tag} lang={bcp47Tag(tag)}>
            {languageName(tag)}
          </option>
        ))}
      </select>
    </div>
  );
}
