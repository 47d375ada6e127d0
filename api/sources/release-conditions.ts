// Release conditions of the items this run checks (the selected topics, the activities read): each
// is read where the site offers the route and handed on with what it names. The first item of each
// kind tells whether the site offers the route at all; if not, the report says so once instead of
// guessing.
import { readReleaseConditions, type ConditionOwner } from '../brightspace/release-conditions.ts';
import pLimit from 'p-limit';
import { msg } from '../i18n/messages.ts';
import type { ConditionOwnerItem } from './activities.ts';
import type { SourceContext } from './course-items.ts';

export interface ReleaseConditionOptions {
  /** The gradebook's item ids, when it was read: what a condition on a grade may name. */
  gradeItems: ReadonlySet<number> | null;
  concurrency: number;
}

export async function readReleaseConditionTool(ctx: SourceContext, owners: ConditionOwnerItem[], options: ReleaseConditionOptions): Promise<void> {
  const byKind = new Map<ConditionOwner['kind'], ConditionOwnerItem[]>();
  for (const item of owners) byKind.set(item.owner.kind, [...(byKind.get(item.owner.kind) ?? []), item]);

  // Returns false when the route is not there for this kind of item.
  const readOne = async (item: ConditionOwnerItem, first: boolean): Promise<boolean> => {
    const reading = await readReleaseConditions(ctx.session, ctx.orgUnitId, item.owner);
    if (reading.ok) {
      await ctx.emit({ place: item.place, url: item.url, conditions: { conditions: reading.value, gradeItems: options.gradeItems } });
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
    const limit = pLimit(options.concurrency);
    await limit.map(group.slice(1), async (item) => {
      ctx.signal?.throwIfAborted();
      await readOne(item, false);
    });
  }
}
