// Links to the course's own content and activities, decided from what the course is rather than by
// a request (the course index says what the target is): a link to a topic or module that is not in
// the table of contents is missing; one students can see, to an item hidden from them, is hidden.
import type { InternalTarget } from '../brightspace/item-urls.ts';
import type { ItemPlace } from '../brightspace/places.ts';
import type { LinkOccurrence } from '../extract/html.ts';
import { msg } from '../i18n/messages.ts';
import { finding } from './catalogue.ts';
import type { Finding } from './finding.ts';
import { linkDetails } from './links.ts';

/** What the course knows about a link's target. */
export type TargetState = 'present' | 'hidden' | 'missing' | 'unknown';

// The target as the message names it (a select value: ICU keys take no hyphen).
const ACTIVITY_WORDS = { assignment: 'dropbox', quiz: 'quiz', 'discussion-topic': 'discuss', 'discussion-forum': 'discussforum' } as const;

function targetWord(target: InternalTarget): string {
  switch (target.kind) {
    case 'topic-code':
      return 'content';
    case 'activity':
      return target.kinds[0] === undefined ? 'other' : ACTIVITY_WORDS[target.kinds[0]];
    default:
      return target.kind;
  }
}

/**
 * The finding for an internal link the index has decided, or none when the target is fine. A link
 * to a hidden item is a finding only where students can see the link: from a hidden topic to
 * another hidden one, no student meets either (`linkHidden`).
 */
export function internalLinkFindings(link: LinkOccurrence, target: InternalTarget, state: TargetState, title: string | undefined, place: ItemPlace, linkHidden = false): Finding[] {
  const details = linkDetails(link);
  if (state === 'missing') return [finding('link.internal-missing', place, link.url, msg('finding.link.internal-missing', { target: targetWord(target) }), details)];
  if (state === 'hidden' && !linkHidden) return [finding('link.internal-hidden', place, link.url, msg('finding.link.internal-hidden', { title: title ?? '' }), details)];
  return [];
}
