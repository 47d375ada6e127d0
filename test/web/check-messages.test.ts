// The Findings panel names each problem and says how to fix it as the report does: for every check of
// the catalogue and for axe rules with and without a name of their own, in every language, the app's
// title and fix are the server's (api/checks/catalogue.ts checkTitle, api/report/present.ts fixOf).
// In Node rather than jsdom: the server reads its catalogues from files, with Node's URL.
// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CHECKS, checkTitle as serverTitle } from '../../api/checks/catalogue.ts';
import { LANGUAGES } from '../../api/i18n/languages.ts';
import { fixOf, presenterFor } from '../../api/report/present.ts';
import { checkFix, checkTitle, loadCheckMessages } from '@/features/findings/check-messages';
import { SUPPORTED_LOCALES } from '@/lib/i18n/locale';

const CHECK_IDS = [...Object.keys(CHECKS), 'a11y.image-alt', 'a11y.color-contrast', 'a11y.target-size', 'a11y.some-future-rule', 'unknown.check'];

describe('the check names and fixes of the Findings panel', () => {
  it('cover the app’s languages', () => {
    expect([...SUPPORTED_LOCALES].sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(LANGUAGES)('in %s are the report’s', async (language) => {
    const texts = await loadCheckMessages(language);
    const presenter = presenterFor(language);
    for (const check of CHECK_IDS) {
      expect(checkTitle(texts, check), check).toBe(serverTitle(check, language));
      expect(checkFix(texts, check), check).toBe(fixOf(presenter, check));
    }
  });
});
