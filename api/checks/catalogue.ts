// The catalogue of checks (DESIGN.md, "The engine"): every finding's id and its severity. Each
// check's short title is the message `check.<id>` (api/i18n/en/report.ts). Accessibility findings
// from axe-core are `a11y.<axe rule id>`, those from IBM's Equal Access engine `a11y.ibm.<rule id>`;
// both take their severity from the table in engine-findings.ts.
import { formatMessage, isMessage, msg, type Message, type MessageId } from '../i18n/messages.ts';
import type { Language } from '../i18n/languages.ts';
import type { Finding, Severity } from './finding.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import { axeRuleText } from '../a11y/axe-rules.ts';
import { ibmRuleTitle } from '../a11y/ibm-rules.ts';

export const CHECKS = {
  'structure.broken': 'error',
  'structure.hidden': 'warning',
  'structure.empty-module': 'warning',
  'structure.date-order': 'error',
  'structure.past-date': 'warning',
  'structure.duplicate-title': 'warning',
  'structure.date-outside-course': 'warning',
  'structure.release-condition-missing': 'error',
  'link.broken': 'error',
  'link.unreachable': 'error',
  'link.redirect': 'info',
  'link.insecure': 'warning',
  'link.cross-course': 'error',
  'link.unverifiable': 'info',
  'link.fragment-missing': 'warning',
  'link.internal-missing': 'error',
  'link.internal-hidden': 'warning',
  'link.mailto-invalid': 'warning',
  'link.soft-404': 'warning',
  'a11y.alt-filename': 'error',
  'a11y.link-text-generic': 'warning',
  'media.no-captions': 'error',
  'a11y.focus-not-visible': 'error',
  'a11y.focus-removed': 'error',
  'a11y.keyboard-trap': 'error',
  'a11y.click-no-keyboard': 'error',
  'a11y.link-same-text': 'warning',
  'a11y.link-nowhere': 'warning',
  'a11y.link-new-window': 'warning',
  'a11y.link-adjacent-duplicate': 'warning',
  'a11y.alt-image-of': 'warning',
  'a11y.alt-too-long': 'warning',
  'a11y.language-of-parts': 'warning',
  'a11y.layout-table-data-markup': 'error',
  'a11y.table-no-headers': 'error',
  'a11y.text-justified': 'warning',
  'a11y.text-all-caps': 'warning',
  'a11y.underline-not-link': 'warning',
  'a11y.text-blink': 'error',
  'a11y.auto-refresh': 'error',
  'doc.pdf-untagged': 'error',
  'doc.pdf-scanned': 'error',
  'doc.no-title': 'warning',
  'doc.no-language': 'warning',
  'doc.image-no-alt': 'error',
  'doc.no-headings': 'warning',
  'doc.slide-no-title': 'warning',
  'doc.chart-no-alt': 'error',
  'doc.heading-skip': 'warning',
  'doc.table-no-header-row': 'error',
  'doc.slide-reading-order': 'warning',
  'doc.invalid-language': 'warning',
  'doc.pdf-figure-no-alt': 'error',
  'doc.pdf-table-no-headers': 'error',
  'doc.pdf-untagged-content': 'error',
  'doc.pdf-link-no-description': 'warning',
  'doc.pdf-field-no-name': 'error',
  'doc.pdf-title-not-shown': 'warning',
  'doc.pdf-encryption-blocks-at': 'error',
  'doc.pdf-xfa': 'error',
  'doc.pdf-font-not-embedded': 'warning',
  'doc.pdf-text-unmapped': 'error',
  'doc.not-fully-checked': 'info',
  'doc.limit-reached': 'info',
  'grades.missing-item': 'error',
  'grades.weights-not-100': 'error',
  'grades.unassociated-item': 'info',
  'content.placeholder': 'error',
  'content.empty': 'warning',
  'content.session-token': 'error',
  'limit.findings': 'info',
  'limit.page-requests': 'info',
} as const satisfies Record<string, Severity>;

export type CheckId = keyof typeof CHECKS;

export function isCheckId(check: string): check is CheckId {
  return check in CHECKS;
}

/** A finding of a catalogued check, with its catalogue severity. */
export function finding(check: CheckId, place: ItemPlace, url: string | null, message: Message, details: Partial<Finding> = {}): Finding {
  return { check, severity: CHECKS[check], ...place, url, message, ...details };
}

/** The short name of any check id, axe rules included, in a language. */
export function checkTitle(check: string, language?: Language): string {
  const own = msg(`check.${check}` as MessageId);
  if (isMessage(own)) return formatMessage(own, language);
  if (check.startsWith('a11y.ibm.')) {
    // IBM's rules by the engine's own title of the rule, in English: the engine ships no other language.
    const rule = check.slice('a11y.ibm.'.length);
    return ibmRuleTitle(rule)?.replace(/\.$/u, '') ?? formatMessage(msg('check.a11y-rule', { rule }), language);
  }
  if (check.startsWith('a11y.')) {
    // Every other axe rule by axe-core's own help text, translated where axe ships the language.
    const rule = check.slice('a11y.'.length);
    return axeRuleText(rule, language)?.help.replace(/[.。]$/u, '') ?? formatMessage(msg('check.a11y-rule', { rule }), language);
  }
  return check;
}

/**
 * What axe-core says to ensure for an axe rule without advice of our own (its description), in the
 * language where axe has it; undefined for anything else.
 */
export function axeRuleAdvice(check: string, language?: Language): string | undefined {
  if (!check.startsWith('a11y.') || check.startsWith('a11y.ibm.')) return undefined;
  const description = axeRuleText(check.slice('a11y.'.length), language)?.description;
  return description === undefined ? undefined : /[.。!]$/u.test(description) ? description : `${description}.`;
}
