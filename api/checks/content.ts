// Content checks: text a course builder left in by mistake, and pages with nothing on them.
import { msg } from '../i18n/messages.ts';
import { finding } from './catalogue.ts';
import type { Finding, FindingPlace } from './finding.ts';
import type { ParsedTopic } from './html.ts';

// Upper-case markers only: "todo" is a Spanish word and "tbd" can be part of prose in lower case.
const PLACEHOLDERS: RegExp[] = [
  /\blorem ipsum\b/gi,
  /\b(?:TBD|TBA|TODO|FIXME)\b/g,
  /\[\s*(?:insert|add|enter|placeholder|your)\b[^\]]{0,80}\]/gi,
];

export function checkContent(topic: ParsedTopic, place: FindingPlace, pageUrl: string | null): Finding[] {
  const findings: Finding[] = [];
  const found = new Set<string>();
  for (const pattern of PLACEHOLDERS) {
    for (const match of topic.text.matchAll(pattern)) found.add(match[0]);
  }
  if (found.size > 0) {
    const examples = [...found].slice(0, 3).map((text) => `"${text}"`).join(', ');
    findings.push(finding('content.placeholder', place, pageUrl, msg('finding.content.placeholder', { examples }), { count: found.size, subject: 'text' }));
  }
  if (topic.text.replace(/[\s\u00a0\u200b]/g, '') === '' && !topic.hasMedia) {
    findings.push(finding('content.empty', place, pageUrl, msg('finding.content.empty'), { subject: 'text' }));
  }
  return findings;
}
