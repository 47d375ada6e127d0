// The checks judged from a rendered page (page-checks.ts) share this: each one's WCAG 2.2 reference
// (the success criteria it concerns, and the W3C page the report links as the finding's explanation:
// a Failure technique where one describes it, else the Understanding document), and the shape of
// their findings (one per check and item, counting its elements and naming the first).
import type { ItemPlace } from '../brightspace/places.ts';
import type { Message } from '../i18n/messages.ts';
import type { ElementFact } from '../a11y/page-checks/page-facts.ts';
import { finding, type CheckId } from './catalogue.ts';
import type { Finding } from './finding.ts';

export interface WcagReference {
  /** Success criteria, e.g. '2.4.7'; empty for a best practice no criterion requires. */
  criteria: string[];
  url: string;
}

const UNDERSTANDING = 'https://www.w3.org/WAI/WCAG22/Understanding/';
const FAILURE = 'https://www.w3.org/WAI/WCAG22/Techniques/failures/';
const HTML_TECHNIQUE = 'https://www.w3.org/WAI/WCAG22/Techniques/html/';

export const PAGE_CHECK_REFERENCES = {
  'a11y.focus-not-visible': { criteria: ['2.4.7'], url: `${FAILURE}F78` },
  'a11y.focus-removed': { criteria: ['2.1.1', '2.4.7', '3.2.1'], url: `${FAILURE}F55` },
  'a11y.keyboard-trap': { criteria: ['2.1.2'], url: `${FAILURE}F10` },
  'a11y.click-no-keyboard': { criteria: ['2.1.1'], url: `${FAILURE}F54` },
  'a11y.link-same-text': { criteria: ['2.4.4', '2.4.9'], url: `${UNDERSTANDING}link-purpose-in-context.html` },
  'a11y.link-nowhere': { criteria: ['2.1.1', '4.1.2'], url: `${FAILURE}F42` },
  'a11y.link-new-window': { criteria: ['3.2.5'], url: `${FAILURE}F22` },
  'a11y.link-adjacent-duplicate': { criteria: ['1.1.1', '2.4.4'], url: `${HTML_TECHNIQUE}H2` },
  'a11y.alt-image-of': { criteria: ['1.1.1'], url: `${UNDERSTANDING}non-text-content.html` },
  'a11y.alt-too-long': { criteria: ['1.1.1'], url: `${UNDERSTANDING}non-text-content.html` },
  'a11y.language-of-parts': { criteria: ['3.1.2'], url: `${HTML_TECHNIQUE}H58` },
  'a11y.layout-table-data-markup': { criteria: ['1.3.1'], url: `${FAILURE}F46` },
  'a11y.table-no-headers': { criteria: ['1.3.1'], url: `${FAILURE}F91` },
  'a11y.text-justified': { criteria: ['1.4.8'], url: `${FAILURE}F88` },
  'a11y.text-all-caps': { criteria: [], url: `${UNDERSTANDING}visual-presentation.html` },
  'a11y.underline-not-link': { criteria: [], url: `${UNDERSTANDING}info-and-relationships.html` },
  'a11y.text-blink': { criteria: ['2.2.2'], url: `${FAILURE}F4` },
  'a11y.auto-refresh': { criteria: ['2.2.1', '3.2.5'], url: `${FAILURE}F41` },
} as const satisfies Partial<Record<CheckId, WcagReference>>;

export type PageCheckId = keyof typeof PAGE_CHECK_REFERENCES;

/** The WCAG reference of a check judged from the rendered page; undefined for any other check. */
export function pageCheckReference(check: string): WcagReference | undefined {
  return Object.hasOwn(PAGE_CHECK_REFERENCES, check) ? PAGE_CHECK_REFERENCES[check as PageCheckId] : undefined;
}

/**
 * One finding for every element of an item that fails a check: its count, the first element's HTML
 * and selector, and the WCAG reference. Its subject is the check's own (or the one given), not the
 * first element, so that fixing one of three leaves it the same finding.
 */
export function pageFinding(check: PageCheckId, place: ItemPlace, url: string | null, message: Message, elements: readonly ElementFact[], details: Partial<Finding> = {}): Finding {
  const first = elements[0];
  return finding(check, place, url, message, {
    count: Math.max(1, elements.length),
    ...(first === undefined ? {} : { element: first.html, selector: first.selector }),
    helpUrl: PAGE_CHECK_REFERENCES[check].url,
    subject: check.slice('a11y.'.length),
    ...details,
  });
}
