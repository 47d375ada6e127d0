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

  it('hold every title and fix of the English catalogue, then axe’s rules without one of their own, and nothing else', () => {
    const ids = Object.keys(english).filter((id) => id.startsWith('check.') || id.startsWith('fix.'));
    const copied = Object.keys(checkMessagesOf('en'));
    expect(copied.slice(0, ids.length)).toEqual(ids);
    const axeRules = copied.slice(ids.length);
    expect(axeRules.every((id) => /^(check|fix)\.a11y\.[a-z0-9-]+$/.test(id) && !ids.includes(id))).toBe(true);
    expect(axeRules).toContain('check.a11y.target-size');
    expect(checkMessagesOf('en')['fix.a11y.target-size']).toBe('Ensure touch targets have sufficient size and space.');
    expect(ids).toContain('check.link.broken');
    expect(ids).toContain('fix.a11y-rule');
  });
});
