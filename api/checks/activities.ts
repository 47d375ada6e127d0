// Activity checks: a quicklink topic whose assignment, quiz or discussion no longer exists in the
// course (students who open the topic get an error), or is hidden from students who can see the
// topic (they see a link to something they cannot open).
import type { ActivityKind } from '../brightspace/item-urls.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import { msg } from '../i18n/messages.ts';
import { finding } from './catalogue.ts';
import type { Finding } from './finding.ts';

/** What a quicklink topic opens, as the course index found it. */
export interface OpenedActivity {
  kinds: readonly ActivityKind[];
  /** The tool item id or quicklink code the topic names. */
  reference: string;
  address: string | null;
  /** Whether students can see the topic. */
  visible: boolean;
  lookup: { state: 'present' | 'hidden' | 'missing' | 'unknown'; activity?: { kind: ActivityKind; id: number; title: string; viewUrl: string } };
}

/** The item's kind as a message select value (ICU keys take no hyphen). */
const selectValue = (kind: ActivityKind) => kind.replaceAll('-', '_');

export function quicklinkFindings(opened: OpenedActivity, place: ItemPlace): Finding[] {
  const { lookup } = opened;
  if (lookup.state === 'missing') {
    const kind = opened.kinds[0]!;
    return [finding('link.internal-missing', place, opened.address, msg('finding.link.quicklink-missing', { kind: selectValue(kind), id: opened.reference }), { element: 'topic', subject: `quicklink:${kind}:${opened.reference}` })];
  }
  const { activity } = lookup;
  if (activity === undefined || lookup.state !== 'hidden' || !opened.visible) return [];
  return [finding('link.internal-hidden', place, activity.viewUrl, msg('finding.link.quicklink-hidden', { kind: selectValue(activity.kind), title: activity.title }), { element: 'topic', subject: `quicklink:${activity.kind}:${activity.id}` })];
}
