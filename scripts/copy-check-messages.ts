// Copies the check titles (`check.<id>`) and fixes (`fix.<id>`) of the server's catalogues into the
// app's, one file per language (web/src/locales/checks/<tag>.json), so that the Findings panel
// names each problem and says how to fix it as the report does, in the interface's language. The
// app cannot import the server's catalogues (it loads only the wire contract), and these texts are
// written once, beside the checks; test/scripts/check-messages.test.ts fails when a copy is behind.
// axe-core's rules without a name of our own are named and advised as the report does it (axe's help
// and description, in the language where axe ships it), so the copy holds them too.
//   npm run messages:checks
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import { axeRuleAdvice, checkTitle } from '../api/checks/catalogue.ts';
import { english } from '../api/i18n/en/catalogue.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../api/i18n/languages.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CHECK_MESSAGES_DIR = `${ROOT}web/src/locales/checks/`;

const isCheckMessage = (id: string) => id.startsWith('check.') || id.startsWith('fix.');

/** A language's check titles and fixes, in the English catalogue's order; English has them all. */
export function checkMessagesOf(language: Language): Record<string, string> {
  const catalogue: Record<string, string> =
    language === DEFAULT_LANGUAGE
      ? english
      : (JSON.parse(readFileSync(new URL(`../api/i18n/locales/${language}.json`, import.meta.url), 'utf8')) as Record<string, string>);
  const own = Object.fromEntries(Object.keys(english).flatMap((id) => (isCheckMessage(id) && catalogue[id] !== undefined ? [[id, catalogue[id]]] : [])));
  const axeRules = axe.getRules().map(({ ruleId }) => `a11y.${ruleId}`).sort();
  const axeTexts = axeRules.flatMap((check) => {
    const title = `check.${check}` in english ? [] : [[`check.${check}`, literal(checkTitle(check, language))]];
    const advice = `fix.${check}` in english ? undefined : axeRuleAdvice(check, language);
    return [...title, ...(advice === undefined ? [] : [[`fix.${check}`, literal(advice)]])];
  });
  return { ...own, ...Object.fromEntries(axeTexts) };
}

/** A text as an ICU message that formats back to itself (axe's texts are plain, not messages). */
function literal(text: string): string {
  return text.replaceAll("'", "''").replace(/[{}]/g, (brace) => `'${brace}'`);
}

/** The file's text, as written: two-space JSON and a final line break. */
export function checkMessagesFile(language: Language): string {
  return `${JSON.stringify(checkMessagesOf(language), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const language of LANGUAGES) writeFileSync(`${CHECK_MESSAGES_DIR}${language}.json`, checkMessagesFile(language));
  console.log(`Wrote the check titles and fixes of ${LANGUAGES.length} languages to web/src/locales/checks/.`);
}
