// The app's copy of the check titles and fixes (web/src/locales/checks/) is the server's, in every
// language: a title or a fix changed, added or translated on the server and not copied fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../api/i18n/languages.ts';
import { english } from '../../api/i18n/en/catalogue.ts';
import { CHECK_MESSAGES_DIR, checkMessagesFile, checkMessagesOf } from '../../scripts/copy-check-messages.ts';

describe('the check titles and fixes in the app', () => {
  it('are one file per language, and no other', () => {
    expect(readdirSync(CHECK_MESSAGES_DIR).sort()).toEqual(LANGUAGES.map((language) => `${language}.json`).sort());
  });

  it.each(LANGUAGES)('%s is the server’s, as `npm run messages:checks` writes it', (language) => {
    expect(readFileSync(`${CHECK_MESSAGES_DIR}${language}.json`, 'utf8'), 'run npm run messages:checks').toBe(checkMessagesFile(language));
  });

  it('hold every title and fix of the English catalogue, and nothing else', () => {
    const ids = Object.keys(english).filter((id) => id.startsWith('check.') || id.startsWith('fix.'));
    expect(Object.keys(checkMessagesOf('en'))).toEqual(ids);
    expect(ids).toContain('check.link.broken');
    expect(ids).toContain('fix.a11y-rule');
  });
});
