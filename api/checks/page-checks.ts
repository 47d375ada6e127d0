// The checks no accessibility engine makes, judged from what the rendered page showed
// (a11y/page-checks/): keyboard access, link purpose, alt text that does not serve, the language of
// parts, and structure and typography. Pure: facts in, findings out.
import type { ItemPlace } from '../brightspace/places.ts';
import type { PageFacts } from '../a11y/page-checks/page-facts.ts';
import { msg } from '../i18n/messages.ts';
import { finding } from './catalogue.ts';
import type { Finding } from './finding.ts';
import { imageTextFindings } from './image-text.ts';
import { keyboardFindings } from './keyboard.ts';
import { languageOfPartsFindings } from './language-of-parts.ts';
import { linkPurposeFindings } from './link-purpose.ts';
import { pageStructureFindings } from './page-structure.ts';

/** Findings of one rendered item; none when its facts could not be read (or the run has no browser). */
export function pageCheckFindings(facts: PageFacts | null | undefined, whole: boolean, place: ItemPlace, url: string | null): Finding[] {
  if (facts === null || facts === undefined) return [];
  return [
    ...keyboardFindings(facts.keyboard, place, url),
    ...linkPurposeFindings(facts.links, place, url),
    ...imageTextFindings(facts.images, place, url),
    ...languageOfPartsFindings(facts.texts, facts.pageLang, whole, place, url),
    ...pageStructureFindings(facts, whole, place, url),
    // Not a defect: the page was checked as it stood once the cap was reached.
    ...(facts.requestCap === undefined ? [] : [finding('limit.page-requests', place, url, msg('finding.limit.page-requests', facts.requestCap), { count: facts.requestCap.refused, subject: 'limit.page-requests' })]),
  ];
}
