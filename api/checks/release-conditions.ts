// Release conditions that depend on an item the course no longer has: students can never meet
// them, so what they release stays hidden for good.
import type { ConditionTarget, ReleaseCondition } from '../brightspace/release-conditions.ts';
import { msg } from '../i18n/messages.ts';
import { finding } from './catalogue.ts';
import type { Finding } from './finding.ts';
import type { ItemPlace } from '../brightspace/places.ts';

/** Whether the course has an item: `unknown` when the tool it belongs to was not read. */
export type ItemExistence = (kind: ConditionTarget, id: number) => 'found' | 'missing' | 'unknown';

export function releaseConditionFindings(conditions: ReleaseCondition[], place: ItemPlace, url: string | null, exists: ItemExistence): Finding[] {
  const findings: Finding[] = [];
  for (const condition of conditions) {
    if (condition.target === null) continue;
    const { kind, id } = condition.target;
    if (exists(kind, id) !== 'missing') continue;
    findings.push(
      finding('structure.release-condition-missing', place, url, msg('finding.structure.release-condition-missing', { target: kind.replaceAll('-', '_'), id: String(id), condition: condition.text || condition.type }), {
        subject: `${kind}:${id}`,
      }),
    );
  }
  return findings;
}
