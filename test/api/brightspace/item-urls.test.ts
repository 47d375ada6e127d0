// Brightspace's own addresses read back: what an address of the course's site opens, where an
// address points into another org unit, and quicklinks, in the forms Brightspace writes them.
import { describe, expect, it } from 'vitest';
import { internalTargetOf, orgUnitOf, parseQuicklink } from '../../../api/brightspace/item-urls.ts';

const SITE = new URL('https://school.brightspace.com');
const OU = 6606;
const target = (path: string) => internalTargetOf(new URL(path, SITE), SITE, OU);

describe('internalTargetOf', () => {
  it.each([
    ['/d2l/le/content/6606/viewContent/101/View', { kind: 'topic', id: 101 }],
    ['/d2l/le/content/6606/viewcontent/101/view', { kind: 'topic', id: 101 }],
    ['/d2l/le/lessons/6606/topics/101', { kind: 'topic', id: 101 }],
    ['/d2l/le/lessons/6606/units/10', { kind: 'module', id: 10 }],
    ['/d2l/le/content/6606/Home?itemIdentifier=D2L.LE.Content.ContentObject.ModuleCO-11', { kind: 'module', id: 11 }],
    ['/d2l/le/content/6606/Home?itemIdentifier=D2L.LE.Content.ContentObject.TopicCO-101', { kind: 'topic', id: 101 }],
    ['/d2l/common/dialogs/quickLink/quickLink.d2l?ou=6606&type=quiz&rcode=BIO-77', { kind: 'activity', kinds: ['quiz'], code: 'BIO-77' }],
    ['/d2l/common/dialogs/quickLink/quickLink.d2l?ou=6606&type=dropbox&rCode=BIO-5', { kind: 'activity', kinds: ['assignment'], code: 'BIO-5' }],
    ['/d2l/common/dialogs/quickLink/quickLink.d2l?ou=6606&type=content&rcode=BIO-101', { kind: 'topic-code', code: 'BIO-101' }],
    ['/d2l/lms/quizzing/user/quiz_summary.d2l?qi=801&ou=6606', { kind: 'activity', kinds: ['quiz'], id: 801 }],
    ['/d2l/lms/dropbox/user/folder_submit_files.d2l?db=7001&grpid=0&ou=6606', { kind: 'activity', kinds: ['assignment'], id: 7001 }],
    ['/d2l/le/6606/discussions/topics/55/View', { kind: 'activity', kinds: ['discussion-topic'], id: 55 }],
    ['/d2l/le/6606/discussions/forums/5/view', { kind: 'activity', kinds: ['discussion-forum'], id: 5 }],
    ['/content/enforced/6606-BIO/welcome.html', { kind: 'file', path: '/content/enforced/6606-BIO/welcome.html' }],
  ])('reads %s', (path, expected) => {
    expect(target(path)).toEqual(expected);
  });

  it.each([
    '/d2l/le/content/7777/viewContent/101/View', // another course: link.cross-course says so
    '/d2l/common/dialogs/quickLink/quickLink.d2l?ou=7777&type=quiz&rcode=X',
    '/d2l/common/dialogs/quickLink/quickLink.d2l?ou=6606&type=coursefile&fileId=notes.pdf', // a file: the request decides
    '/d2l/le/content/6606/Home',
    '/d2l/home/6606',
    'https://elsewhere.example.com/d2l/le/content/6606/viewContent/101/View',
  ])('leaves %s to the other checks', (path) => {
    expect(target(path)).toBeNull();
  });
});

describe('orgUnitOf', () => {
  it.each([
    ['https://school.brightspace.com/d2l/le/content/7777/viewContent/12/View', 7777],
    ['https://school.brightspace.com/d2l/home/7777', 7777],
    ['https://school.brightspace.com/content/enforced/7777-BIO100/file.pdf', 7777],
    ['https://school.brightspace.com/d2l/le/7777/discussions/List', 7777],
    ['https://school.brightspace.com/d2l/lms/dropbox/user/folder_submit_files.d2l?db=5&ou=7777', 7777],
    ['https://school.brightspace.com/d2l/common/dialogs/quickLink/quickLink.d2l?ou=7777&type=quiz', 7777],
    ['https://other-school.brightspace.com/d2l/home/8888', 8888], // Brightspace path on another host
  ])('reads the org unit of %s', (url, expected) => {
    expect(orgUnitOf(new URL(url), SITE)).toBe(expected);
  });

  it.each([
    'https://example.com/?ou=7777', // "ou" means nothing off Brightspace
    'https://example.com/content/7777-notes.html',
    'https://school.brightspace.com/d2l/lp/navbars/6606/customlinks', // not a course path we know
    'https://school.brightspace.com/shared/logo.png',
  ])('finds none in %s', (url) => {
    expect(orgUnitOf(new URL(url), SITE)).toBeNull();
  });
});

describe('parseQuicklink', () => {
  it('reads the type, what it opens, the code and the org unit, whatever the case of the names', () => {
    expect(parseQuicklink('/d2l/common/dialogs/quickLink/quickLink.d2l?OU=6606&Type=Discuss&rCode=BIO-9', SITE)).toEqual({ type: 'discuss', opens: ['discussion-topic', 'discussion-forum'], code: 'BIO-9', orgUnitId: 6606 });
    expect(parseQuicklink('/d2l/common/dialogs/quickLink/quickLink.d2l?ou=6606&type=content&rcode=X', SITE)).toMatchObject({ opens: 'topic' });
    expect(parseQuicklink('/d2l/common/dialogs/quickLink/quickLink.d2l?ou=6606&type=checklist&rcode=X', SITE)).toMatchObject({ opens: [] });
    expect(parseQuicklink('/d2l/common/dialogs/quickLink/quickLink.d2l?ou=abc&type=lti', SITE)).toEqual({ type: 'lti', opens: null, code: null, orgUnitId: null });
  });

  it('is null for any other address', () => {
    expect(parseQuicklink('/d2l/le/content/6606/Home', SITE)).toBeNull();
    expect(parseQuicklink('/d2l/common/dialogs/quickLink/other.d2l?type=quiz', SITE)).toBeNull();
    expect(parseQuicklink('http://[bad', SITE)).toBeNull();
  });
});
