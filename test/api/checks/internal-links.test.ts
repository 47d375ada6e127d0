import { describe, expect, it } from 'vitest';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { internalLinkFindings } from '../../../api/checks/internal-links.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';

describe('internalLinkFindings', () => {
  const place = topicPlace({ ModuleId: 10, Title: 'Week 1' }, { TopicId: 101, Title: 'Welcome' });
  const link = { raw: '/x', url: 'https://school.brightspace.com/x', element: 'a href', embedded: false, text: 'Notes' };

  it('an error for a missing target, a warning for a hidden one, nothing for one students can open', () => {
    const [missing] = internalLinkFindings(link, { kind: 'activity', kinds: ['quiz'], id: 1 }, 'missing', undefined, place);
    expect(missing).toMatchObject({ check: 'link.internal-missing', severity: 'error', linkText: 'Notes', element: 'a href' });
    expect(formatMessage(missing!.message)).toBe("This link opens a quiz that does not exist in this course, so students get an error page. Point it at the item's current address.");
    const [hidden] = internalLinkFindings(link, { kind: 'topic', id: 102 }, 'hidden', 'Draft notes', place);
    expect(hidden).toMatchObject({ check: 'link.internal-hidden', severity: 'warning' });
    expect(formatMessage(hidden!.message)).toContain('"Draft notes", which is hidden from students');
    expect(internalLinkFindings(link, { kind: 'topic', id: 101 }, 'present', 'Welcome', place)).toEqual([]);
  });

  it('no finding for a link to a hidden item from where students cannot see the link; a missing target still is one', () => {
    expect(internalLinkFindings(link, { kind: 'topic', id: 102 }, 'hidden', 'Draft notes', place, true)).toEqual([]);
    expect(internalLinkFindings(link, { kind: 'topic', id: 102 }, 'missing', undefined, place, true)).toMatchObject([{ check: 'link.internal-missing' }]);
  });
});
