// Content checks: text a course builder left in by mistake, and pages with nothing on them.
import { finding, type FindingPlace } from './catalogue.ts';
import type { ParsedTopic } from './html.ts';
import type { Finding } from '../engine/types.ts';

// Upper-case markers only: "todo" is a Spanish word and "tbd" can be part of prose in lower case.
const PLACEHOLDERS: RegExp[] = [
  /\blorem ipsum\b/gi,
  /\b(?:TBD|TBA|TODO|FIXME)\b/g,
  /\[\s*(?:insert|add|enter|placeholder|your)\b[^\]]{0,80}\]/gi,
];

export function checkContent(topic: ParsedTopic, place: FindingPlace, pageUrl: string): Finding[] {
  const findings: Finding[] = [];
  const found = new Set<string>();
  for (const pattern of PLACEHOLDERS) {
    for (const match of topic.text.matchAll(pattern)) found.add(match[0]);
  }
  if (found.size > 0) {
    const examples = [...found].slice(0, 3).map((text) => `"${text}"`).join(', ');
    findings.push(finding('content.placeholder', place, pageUrl, `Placeholder text is still on the page: ${examples}. Replace it with the real content.`));
  }
  if (topic.text.replace(/[\s\u00a0\u200b]/g, '') === '' && !topic.hasMedia) {
    findings.push(finding('content.empty', place, pageUrl, 'The page has no text, images or media: students will see a blank page.'));
  }
  return findings;
}
