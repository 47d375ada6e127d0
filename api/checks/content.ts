// Content checks: text a course builder left in by mistake, and pages with nothing on them.
import { msg } from '../i18n/messages.ts';
import { finding } from './catalogue.ts';
import type { Finding } from './finding.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import type { ParsedTopic } from '../extract/html.ts';

// Upper-case markers only: "todo" is a Spanish word and "tbd" can be part of prose in lower case.
const PLACEHOLDERS: RegExp[] = [
  /\blorem ipsum\b/gi,
  /\b(?:TBD|TBA|TODO|FIXME)\b/g,
  /\[\s*(?:insert|add|enter|placeholder|your)\b[^\]]{0,80}\]/gi,
];

/** The distinct placeholder texts in a text, in order of appearance by pattern. */
export function placeholdersIn(text: string): string[] {
  const found = new Set<string>();
  for (const pattern of PLACEHOLDERS) {
    for (const match of text.matchAll(pattern)) found.add(match[0]);
  }
  return [...found];
}

/** The placeholder finding for the placeholder texts of an item: a page, or a document (a file to upload again). */
export function placeholderFinding(found: string[], place: ItemPlace, url: string | null, details: Partial<Finding> = {}, inDocument = false): Finding {
  const examples = found.slice(0, 3).map((text) => `"${text}"`).join(', ');
  return finding('content.placeholder', place, url, msg(inDocument ? 'finding.doc.placeholder' : 'finding.content.placeholder', { examples }), { count: found.length, subject: 'text', ...details });
}

export function checkContent(topic: ParsedTopic, place: ItemPlace, pageUrl: string | null): Finding[] {
  const findings: Finding[] = [];
  const found = placeholdersIn(topic.text);
  if (found.length > 0) findings.push(placeholderFinding(found, place, pageUrl));
  if (topic.text.replace(/[\s\u00a0\u200b]/g, '') === '' && !topic.hasMedia) {
    findings.push(finding('content.empty', place, pageUrl, msg('finding.content.empty'), { subject: 'text' }));
  }
  return findings;
}

// Brightspace's session cookies. Pasted into content (usually inside an image address copied from
// the browser), they hand that session to every reader of the page.
const SESSION_TOKEN = /\b(d2lSessionVal|d2lSecureSessionVal)\s*=/gi;

/**
 * A Brightspace session value in an item's HTML. The finding names the parameter and never its
 * value: the value is someone's session.
 */
export function sessionTokenFindings(html: string, place: ItemPlace, pageUrl: string | null): Finding[] {
  const names = new Set<string>();
  let count = 0;
  for (const match of html.matchAll(SESSION_TOKEN)) {
    names.add(match[1]!);
    count++;
  }
  if (count === 0) return [];
  return [finding('content.session-token', place, pageUrl, msg('finding.content.session-token', { names: [...names].sort().join(', '), count }), { subject: 'session-token', count })];
}
