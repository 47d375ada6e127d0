// Alt text that is there but does not serve: one that announces itself as an image ("Image of a
// cell", which a screen reader already says), and one too long to listen to (a long description
// belongs in the page). Judged from the rendered page's images (a11y/page-checks/probe.ts); alt
// text that is a file name is checked on the item's HTML (accessibility.ts).
import type { ItemPlace } from '../brightspace/places.ts';
import { msg } from '../i18n/messages.ts';
import type { ImageFact } from '../a11y/page-checks/page-facts.ts';
import type { Finding } from './finding.ts';
import { pageFinding } from './page-findings.ts';

/** Screen readers announce an image before reading its alt text; this much is as much as a listener bears. */
export const ALT_MAX_CHARS = 150;

const IMAGE_OF = /^(an?\s+|the\s+)?(image|picture|photo(graph)?|graphic|icon|screen\s?shot|illustration|img|pic)\s+(of|showing)\b|^(image|picture|photo|graphic)\s*:|^(une?\s+)?(image|photo)\s+(de|d’|d')|^(una?\s+)?(imagen|foto(grafía)?)\s+de\b|^(ein\s+)?(bild|foto)\s+(von|vom)\b|^(een\s+)?(afbeelding|foto)\s+van\b/iu;

export function startsImageOf(alt: string): boolean {
  return IMAGE_OF.test(alt.trim());
}

export function imageTextFindings(images: readonly ImageFact[], place: ItemPlace, url: string | null): Finding[] {
  const findings: Finding[] = [];
  const imageOf = images.filter((image) => startsImageOf(image.alt));
  if (imageOf.length > 0) {
    const alt = imageOf[0]!.alt.trim();
    findings.push(pageFinding('a11y.alt-image-of', place, url, msg('finding.a11y.alt-image-of', { count: imageOf.length, alt: alt.length > 60 ? `${alt.slice(0, 57)}...` : alt }), imageOf, { linkText: alt }));
  }
  const long = images.filter((image) => image.alt.trim().length > ALT_MAX_CHARS);
  if (long.length > 0) {
    findings.push(pageFinding('a11y.alt-too-long', place, url, msg('finding.a11y.alt-too-long', { count: long.length, length: long[0]!.alt.trim().length, max: ALT_MAX_CHARS }), long));
  }
  return findings;
}
