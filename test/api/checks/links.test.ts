import { describe, expect, it } from 'vitest';
import { topicPlace } from '../../../api/brightspace/places.ts';
import { formatMessage, msg } from '../../../api/i18n/messages.ts';
import { fragmentFindings, mailtoFindings, probeFindings, staticLinkFindings } from '../../../api/checks/links.ts';

const SITE = new URL('https://school.brightspace.com');
const PLACE = topicPlace({ ModuleId: 1, Title: 'M' }, { TopicId: 2, Title: 'T' });
const link = (url: string | null, embedded = false, raw = url ?? '') => ({ raw, url, element: embedded ? 'img' : 'a', embedded });

describe('staticLinkFindings', () => {
  it('link.cross-course: another org unit, not this course', () => {
    expect(staticLinkFindings(link('https://school.brightspace.com/d2l/home/7777'), PLACE, SITE, 6606).map((f) => f.check)).toEqual(['link.cross-course']);
    expect(staticLinkFindings(link('https://school.brightspace.com/d2l/home/6606'), PLACE, SITE, 6606)).toEqual([]);
    expect(staticLinkFindings(link('https://school.brightspace.com/content/enforced/6606-BIO101/a.pdf'), PLACE, SITE, 6606)).toEqual([]);
  });

  it('link.insecure: http on an https course, worded for links and for embedded content', () => {
    const [anchor] = staticLinkFindings(link('http://example.com/page'), PLACE, SITE, 6606);
    expect(anchor).toMatchObject({ check: 'link.insecure', severity: 'warning' });
    expect(formatMessage(anchor!.message)).toContain('This link uses plain http');
    const [image] = staticLinkFindings(link('http://example.com/a.png', true), PLACE, SITE, 6606);
    expect(formatMessage(image!.message)).toContain('browsers block it');
    expect(staticLinkFindings(link('https://example.com/page'), PLACE, SITE, 6606)).toEqual([]);
    expect(staticLinkFindings(link('http://example.com/page'), PLACE, new URL('http://localhost:8444'), 6606)).toEqual([]);
  });

  it('link.broken: an address that is not valid at all', () => {
    const findings = staticLinkFindings(link(null, false, 'https://exa mple.com'), PLACE, SITE, 6606);
    expect(findings).toMatchObject([{ check: 'link.broken', severity: 'error', ...PLACE, url: 'https://exa mple.com' }]);
    expect(formatMessage(findings[0]!.message)).toBe('"https://exa mple.com" is not a valid web address, so it cannot work. Correct it.');
  });
});

describe('probeFindings', () => {
  const url = 'https://example.com/a';
  it('turns each outcome into its check, and a clean answer into none', () => {
    const probe = (outcome: 'ok' | 'broken' | 'unreachable' | 'unverifiable', movedTo: string | null = null) => ({ outcome, status: null, movedTo, detail: msg('finding.link.ok') });
    expect(probeFindings(link(url) as { raw: string; url: string; element: string; embedded: boolean }, probe('broken'), PLACE).map((f) => f.check)).toEqual(['link.broken']);
    expect(probeFindings({ ...link(url), url }, probe('unreachable'), PLACE).map((f) => f.check)).toEqual(['link.unreachable']);
    expect(probeFindings({ ...link(url), url }, probe('unverifiable'), PLACE).map((f) => [f.check, f.severity])).toEqual([['link.unverifiable', 'info']]);
    expect(probeFindings({ ...link(url), url }, probe('ok', 'https://example.com/b'), PLACE).map((f) => [f.check, formatMessage(f.message)])).toEqual([
      ['link.redirect', 'This address has moved permanently to https://example.com/b. Update the link.'],
    ]);
    expect(probeFindings({ ...link(url), url }, probe('ok'), PLACE)).toEqual([]);
  });
});

describe('what needs no request', () => {
  it('a file on the author\'s computer is broken, and says so', () => {
    const [local] = staticLinkFindings({ raw: 'file:///C:/Users/me/notes.docx', url: null, element: 'a href', embedded: false, problem: 'local-file' }, PLACE, SITE, 6606);
    expect(local).toMatchObject({ check: 'link.broken', url: 'file:///C:/Users/me/notes.docx' });
    expect(formatMessage(local!.message)).toContain('points at a file on a computer');
  });

  it('a malformed mailto: is a warning of its own; a valid one and app links are not findings', () => {
    const mail = (raw: string, valid: boolean, scheme = 'mailto') => mailtoFindings({ raw, scheme, element: 'a href', valid, text: 'Write' }, PLACE);
    expect(mail('mailto:ada.example.edu', false)).toMatchObject([{ check: 'link.mailto-invalid', severity: 'warning', url: 'mailto:ada.example.edu', linkText: 'Write', element: 'a href' }]);
    expect(mail('mailto:ada@example.edu', true)).toEqual([]);
    expect(mail('slack://open', true, 'slack')).toEqual([]);
  });

  it('fragments missing from the target, one finding per fragment with its count; state fragments never', () => {
    const findings = fragmentFindings('https://example.com/page.html', [
      { fragment: 'intro', element: 'a href' },
      { fragment: 'gone', element: 'a href', text: 'Gone', count: 2 },
      { fragment: '/route', element: 'a href' },
      { fragment: 'top', element: 'a href' },
    ], new Set(['intro']), PLACE, false);
    expect(findings).toMatchObject([{ check: 'link.fragment-missing', severity: 'warning', url: 'https://example.com/page.html#gone', linkText: 'Gone', count: 2, subject: 'https://example.com/page.html#gone' }]);
    expect(formatMessage(findings[0]!.message)).toContain('has no place called "#gone"');
  });
});

describe('a form that only posts', () => {
  it('is not broken when its address refuses GET (405), but is when it is missing', () => {
    const url = 'https://example.com/submit';
    const probe = (status: number) => ({ outcome: 'broken' as const, status, movedTo: null, detail: msg('finding.link.refused', { status }) });
    const form = { raw: url, url, element: 'form action', embedded: false, postOnly: true };
    expect(probeFindings(form, probe(405), PLACE)).toEqual([]);
    expect(probeFindings(form, probe(404), PLACE).map((f) => f.check)).toEqual(['link.broken']);
    expect(probeFindings({ ...form, postOnly: undefined }, probe(405), PLACE).map((f) => f.check)).toEqual(['link.broken']);
  });
});
