// Release conditions of the items this run checks (the selected topics, the activities read):
// each is read where the site offers the route, and a condition on an item the course no longer
// has is a finding. The first item of each kind tells whether the site offers the route at all;
// if not, the report says so once instead of guessing.
import type { TocModule, TocResponse } from '../brightspace/types.ts';
import { readReleaseConditions, type ConditionOwner, type ConditionTarget } from '../brightspace/release-conditions.ts';
import type { Finding, FindingPlace } from '../checks/finding.ts';
import { releaseConditionFindings } from '../checks/release-conditions.ts';
import { msg } from '../i18n/messages.ts';
import type { ActivityIndex } from './activity-index.ts';
import { forEachLimited, type SourceContext } from './course-items.ts';

export interface ConditionOwnerItem {
  owner: ConditionOwner;
  place: FindingPlace;
  url: string | null;
}

export interface ReleaseConditionOptions {
  index: ActivityIndex;
  toc: TocResponse;
  /** The gradebook's item ids, when it was read. */
  gradeItems: Set<number> | null;
  concurrency: number;
}

function topicIdsOf(modules: TocModule[], into = new Set<number>()): Set<number> {
  for (const module of modules) {
    for (const topic of module.Topics ?? []) into.add(topic.TopicId);
    topicIdsOf(module.Modules ?? [], into);
  }
  return into;
}

export async function checkReleaseConditions(ctx: SourceContext, owners: ConditionOwnerItem[], options: ReleaseConditionOptions): Promise<Finding[]> {
  const topics = topicIdsOf(options.toc.Modules);
  const exists = (kind: ConditionTarget, id: number): 'found' | 'missing' | 'unknown' => {
    if (kind === 'topic') return topics.has(id) ? 'found' : 'missing';
    if (kind === 'grade-item') return options.gradeItems === null ? 'unknown' : options.gradeItems.has(id) ? 'found' : 'missing';
    return options.index.byId(kind, id).state;
  };
  const findings: Finding[] = [];
  const byKind = new Map<ConditionOwner['kind'], ConditionOwnerItem[]>();
  for (const item of owners) byKind.set(item.owner.kind, [...(byKind.get(item.owner.kind) ?? []), item]);

  // Returns false when the route is not there for this kind of item.
  const readOne = async (item: ConditionOwnerItem, first: boolean): Promise<boolean> => {
    const reading = await readReleaseConditions(ctx.session, ctx.orgUnitId, item.owner);
    if (reading.ok) {
      findings.push(...releaseConditionFindings(reading.value, item.place, item.url, exists));
      return true;
    }
    const { problem, status } = reading.failure;
    if (problem === 'not-offered') {
      if (first) ctx.note({ key: 'release-conditions', message: msg('note.release-conditions.not-offered', { status }) });
      return !first;
    }
    ctx.note({ key: 'release-conditions', message: msg('note.release-conditions.unreadable', { problem, status }) });
    return problem !== 'forbidden';
  };

  for (const group of byKind.values()) {
    if (!(await readOne(group[0]!, true))) continue;
    await forEachLimited(group.slice(1), options.concurrency, ctx.signal, async (item) => void (await readOne(item, false)));
  }
  return findings;
}
