import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../../api/i18n/messages.ts';
import { CookieJar } from '../../../api/brightspace/cookie-jar.ts';
import { readLoginPage } from '../../../api/brightspace/login-page.ts';
import { classifyTopic, normalizeToc, selectModules } from '../../../api/brightspace/toc.ts';
import { compareVersions, pickApiVersions, supportsIgnoreDateRestrictions } from '../../../api/brightspace/versions.ts';
import type { TocResponse } from '../../../api/brightspace/types.ts';

describe('pickApiVersions', () => {
  it('takes the newest LE and LP versions the site lists', () => {
    const body = [
      { ProductCode: 'lp', LatestVersion: '1.50', SupportedVersions: ['1.30', '1.9', '1.50'] },
      { ProductCode: 'le', LatestVersion: '1.91', SupportedVersions: ['1.67', '1.91'] },
      { ProductCode: 'ep', LatestVersion: '2.5' },
    ];
    expect(pickApiVersions(body)).toEqual({ le: '1.91', lp: '1.50' });
  });

  it('returns null for anything that is not a versions list', () => {
    expect(pickApiVersions({ hello: 'world' })).toBeNull();
    expect(pickApiVersions([{ ProductCode: 'xx', LatestVersion: '1.0' }])).toBeNull();
    expect(pickApiVersions('<html>')).toBeNull();
  });

  it('compares versions as numbers, not text', () => {
    expect(compareVersions('1.9', '1.10')).toBe(-1);
    expect(compareVersions('1.67', '1.67')).toBe(0);
    expect(supportsIgnoreDateRestrictions('1.67')).toBe(true);
    expect(supportsIgnoreDateRestrictions('1.66')).toBe(false);
  });
});

describe('readLoginPage', () => {
  it('finds the local form, its field names and hidden fields', () => {
    const page = readLoginPage(`<form action="/d2l/lp/auth/login/login.d2l" method="post">
      <input type="hidden" name="loginPath" value="/d2l/login"><input type="hidden" name="d2l_referrer" value="">
      <input type="text" name="userName"><input type="password" name="password"></form>
      <form action="/search"><input type="hidden" name="q" value="x"></form>`);
    expect(page).toEqual({
      hasPasswordForm: true,
      hasSsoButton: false,
      userNameField: 'userName',
      passwordField: 'password',
      hiddenFields: { loginPath: '/d2l/login', d2l_referrer: '' },
    });
  });

  it('recognises the single sign-on button with and without a form', () => {
    expect(readLoginPage('<d2l-button class="d2l-button-sso">Institution</d2l-button>')).toMatchObject({ hasPasswordForm: false, hasSsoButton: true });
    expect(readLoginPage('<a href="/d2l/lp/auth/saml/login">Sign in</a><form><input name="username"><input type="password" name="pw"></form>')).toMatchObject({
      hasPasswordForm: true,
      hasSsoButton: true,
      userNameField: 'username',
      passwordField: 'pw',
    });
  });

  it('does not take a page about passwords for a login form', () => {
    expect(readLoginPage('<p>Forgot your password? Type it in the password box.</p>')).toMatchObject({ hasPasswordForm: false, hasSsoButton: false });
  });
});

describe('normalizeToc', () => {
  it('keeps Brightspace fields and tolerates missing or broken ones', () => {
    const toc = normalizeToc({
      Modules: [
        { ModuleId: 1, Title: 'One', IsHidden: false, Topics: [{ TopicId: '11', Title: 'T' }, { Title: 'no id' }, null], Modules: null },
        { ModuleId: 'x', Title: 'bad id' },
        { ModuleId: 2 },
      ],
    });
    expect(toc).toEqual({
      Modules: [
        { ModuleId: 1, Title: 'One', IsHidden: false, Topics: [{ TopicId: 11, Title: 'T' }], Modules: [] },
        { ModuleId: 2, Title: '', Topics: [], Modules: [] },
      ],
    });
  });

  it('returns null when the body is not a table of contents', () => {
    expect(normalizeToc([1, 2])).toBeNull();
    expect(normalizeToc({ Items: [] })).toBeNull();
    expect(normalizeToc({ Modules: 'nope' })).toEqual({ Modules: [] });
  });
});

describe('selectModules', () => {
  const toc: TocResponse = {
    Modules: [
      { ModuleId: 2, Title: 'Second', SortOrder: 2 },
      { ModuleId: 1, Title: 'First', SortOrder: 1, Modules: [{ ModuleId: 11, Title: 'Nested', Modules: [{ ModuleId: 111, Title: 'Deep' }] }] },
    ],
  };

  it('walks every module in toc order with depth and parent', () => {
    expect(selectModules(toc, 'all').map((m) => [m.module.ModuleId, m.depth, m.parentModuleId])).toEqual([
      [1, 0, null],
      [11, 1, 1],
      [111, 2, 11],
      [2, 0, null],
    ]);
  });

  it('includes what is nested in a selected module, once', () => {
    expect(selectModules(toc, [11, 111]).map((m) => [m.module.ModuleId, m.depth, m.parentModuleId])).toEqual([
      [11, 0, null],
      [111, 1, 11],
    ]);
  });

  it('refuses a module id the course does not have', () => {
    expect(() => selectModules(toc, [1, 404])).toThrow("Module 404 is not in this course's table of contents.");
  });

  // "Unit 1 without 1.2": the parent's own topics and the sub-modules left checked.
  const course: TocResponse = {
    Modules: [
      {
        ModuleId: 1,
        Title: 'Unit 1',
        Topics: [{ TopicId: 10, Title: 'Notes' }],
        Modules: [
          { ModuleId: 11, Title: '1.1', Topics: [{ TopicId: 110, Title: 'Reading' }] },
          { ModuleId: 12, Title: '1.2', Topics: [{ TopicId: 120, Title: 'Lab' }], Modules: [{ ModuleId: 121, Title: '1.2.1' }] },
        ],
      },
      { ModuleId: 2, Title: 'Unit 2' },
    ],
  };
  const picked = (selection: number[] | 'all', exclude: number[]) => selectModules(course, selection, exclude).map((m) => [m.module.ModuleId, m.topics.map((t) => t.TopicId)]);

  it('leaves out an excluded sub-module and everything in it, and keeps the parent’s own topics', () => {
    expect(picked([1], [12])).toEqual([
      [1, [10]],
      [11, [110]],
    ]);
    expect(picked('all', [12, 2])).toEqual([
      [1, [10]],
      [11, [110]],
    ]);
    // A module chosen by its own id stays, even inside a left-out one.
    expect(picked([1, 121], [12])).toEqual([
      [1, [10]],
      [11, [110]],
      [121, []],
    ]);
  });

  it('refuses to leave out a module that is not inside a chosen one, or not in the course', () => {
    expect(() => selectModules(course, [2], [12])).toThrow('Module 12 is not inside a chosen module, so it cannot be left out.');
    expect(() => selectModules(course, [1], [404, 2])).toThrow('Modules 404, 2 are not inside a chosen module, so they cannot be left out.');
  });

  it('selects nothing when only course-wide items are read', () => {
    expect(selectModules(course, [], [])).toEqual([]);
  });
});

describe('classifyTopic', () => {
  const topic = (fields: Record<string, unknown>) => ({ TopicId: 1, Title: 't', ...fields });

  it('reads HTML files and checks link topics', () => {
    expect(classifyTopic(topic({ TypeIdentifier: 'File', ActivityType: 1, Url: '/content/enforced/1-A/Page.HTML' }))).toEqual({ kind: 'html', path: '/content/enforced/1-A/Page.HTML' });
    expect(classifyTopic(topic({ TypeIdentifier: 'File', Url: '/content/enforced/1-A/page.htm?v=2' }))).toMatchObject({ kind: 'html' });
    expect(classifyTopic(topic({ TypeIdentifier: 'Link', ActivityType: 2, Url: 'https://example.com/' }))).toEqual({ kind: 'link', url: 'https://example.com/' });
    expect(classifyTopic(topic({ TopicType: 3, Url: 'https://example.com/' }))).toMatchObject({ kind: 'link' });
  });

  it('reads PDF, Word and PowerPoint files as documents', () => {
    expect(classifyTopic(topic({ TypeIdentifier: 'File', ActivityType: 1, Url: '/x/slides.PDF' }))).toEqual({ kind: 'document', path: '/x/slides.PDF', type: 'pdf' });
    expect(classifyTopic(topic({ TypeIdentifier: 'File', Url: '/x/handout.docx?v=2' }))).toMatchObject({ kind: 'document', type: 'docx' });
    expect(classifyTopic(topic({ TopicType: 1, Url: '/x/week1.pptx' }))).toMatchObject({ kind: 'document', type: 'pptx' });
  });

  it('lists what it cannot read with a reason', () => {
    const reasonOf = (fields: Record<string, unknown>) => {
      const kind = classifyTopic(topic(fields));
      return kind.kind === 'unreadable' ? formatMessage(kind.reason) : kind.kind;
    };
    expect(classifyTopic(topic({ TypeIdentifier: 'File', ActivityType: 1, Url: '/x/marks.xlsx' }))).toMatchObject({ kind: 'unreadable', url: '/x/marks.xlsx' });
    expect(reasonOf({ TypeIdentifier: 'File', ActivityType: 1, Url: '/x/marks.xlsx' })).toBe('XLSX file: CTPO reads HTML pages and PDF, Word and PowerPoint files only. Check this file by hand.');
    expect(reasonOf({ TypeIdentifier: 'File', Url: '/x/notes.odt' })).toContain('ODT file');
    expect(reasonOf({ TypeIdentifier: 'File', Url: '/x/bundle.zip' })).toContain('ZIP file');
    expect(reasonOf({ TypeIdentifier: 'File', Url: '/x/lecture.mp4' })).toContain('MP4 media file');
    expect(reasonOf({ TypeIdentifier: 'Link', ActivityType: 4, Url: '/d2l/common/dialogs/quickLink/quickLink.d2l?ou=5&type=quiz' })).toBe('Quiz: its questions are not read by CTPO.');
    expect(reasonOf({ TypeIdentifier: 'lti' })).toContain('LTI');
    expect(reasonOf({ TypeIdentifier: 'Link' })).toBe('This link topic has no address.');
    expect(reasonOf({})).toBe('This kind of topic is not read by CTPO.');
  });
});

describe('CookieJar', () => {
  it('keeps, replaces and deletes cookies and shows none of them', () => {
    const jar = new CookieJar();
    jar.store(['d2lSessionVal=abc123; path=/; HttpOnly', 'd2lSecureSessionVal=def456; path=/; secure']);
    jar.store('d2lSessionVal=ghi789; path=/');
    expect(jar.header()).toBe('d2lSessionVal=ghi789; d2lSecureSessionVal=def456');
    jar.store('d2lSecureSessionVal=gone; Max-Age=0');
    expect(jar.has('d2lSecureSessionVal')).toBe(false);
    expect(inspect(jar)).not.toContain('ghi789');
    expect(JSON.stringify({ jar })).not.toContain('ghi789');
    jar.clear();
    expect(jar.header()).toBeUndefined();
  });
});
