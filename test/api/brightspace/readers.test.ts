// The Valence readers: lists in each of the three paging forms (and what a site must not do with
// them: send the client elsewhere, or round in a loop), and parsing that forgives what real sites
// send (unknown fields kept, fields of the wrong type read as absent, entries without an id
// skipped and counted) without guessing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseContentObject } from '../../../api/brightspace/content-objects.ts';
import { parseForum, parseDiscussionTopic } from '../../../api/brightspace/discussions.ts';
import { parseDropboxFolder } from '../../../api/brightspace/dropbox.ts';
import { parseGradeCategory, parseGradeItem } from '../../../api/brightspace/grades.ts';
import { parseNewsItem } from '../../../api/brightspace/news.ts';
import { readList } from '../../../api/brightspace/paging.ts';
import { parseQuiz } from '../../../api/brightspace/quizzes.ts';
import { readListOf } from '../../../api/brightspace/reading.ts';
import { parseConditions } from '../../../api/brightspace/release-conditions.ts';
import { BrightspaceSession } from '../../../api/brightspace/session.ts';
import { richTextHtml } from '../../../api/brightspace/valence-fields.ts';
import { GuardedHttpClient } from '../../../api/net/guarded-http.ts';
import { createBrightspaceHandler } from '../../fixtures/brightspace-site.ts';

const USER = 'reader';
const PASSWORD = 'reader-password';
// Bodies served at /d2l/api/le/1.91/1/<path>; everything else is the Brightspace-like site.
const bodies = new Map<string, (url: URL, origin: string) => unknown>();
let server: Server;
let origin: URL;
let http: GuardedHttpClient;
let session: BrightspaceSession;

beforeAll(async () => {
  const site = createBrightspaceHandler({ login: 'form', users: [{ username: USER, password: PASSWORD }], courses: [] });
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    const body = bodies.get(url.pathname.replace(/^\/d2l\/api\/le\/[\d.]+\/1\//, ''));
    if (body === undefined) return site.handle(req, res);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body(url, origin.origin)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  http = new GuardedHttpClient({ policy: { allowPrivateTargets: true, allowHttp: true } });
  session = await BrightspaceSession.open({ origin, username: USER, password: PASSWORD, http });
});

afterAll(async () => {
  await session?.close();
  await http?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const page = (url: URL) => Number(url.searchParams.get('bookmark') ?? '0');

describe('readList, in each paging form', () => {
  it('a bare array: one request', async () => {
    bodies.set('bare/', () => [{ Id: 1 }, { Id: 2 }]);
    expect(await readList(session, session.leUrl(1, 'bare/'))).toEqual({ ok: true, items: [{ Id: 1 }, { Id: 2 }], pages: 1 });
  });

  it('an ObjectListPage with an absolute Next, ending with null', async () => {
    bodies.set('absolute/', (url, at) => (page(url) < 2 ? { Objects: [{ Id: page(url) }], Next: `${at}/d2l/api/le/1.91/1/absolute/?bookmark=${page(url) + 1}` } : { Objects: [{ Id: 2 }], Next: null }));
    const answer = await readList(session, session.leUrl(1, 'absolute/'));
    expect(answer).toEqual({ ok: true, items: [{ Id: 0 }, { Id: 1 }, { Id: 2 }], pages: 3 });
  });

  it('an ObjectListPage with a relative Next, ending with an empty string', async () => {
    bodies.set('relative/', (url) => (page(url) < 1 ? { Objects: [{ Id: 'a' }], Next: '/d2l/api/le/1.91/1/relative/?bookmark=1' } : { Objects: [{ Id: 'b' }], Next: '' }));
    expect(await readList(session, session.leUrl(1, 'relative/'))).toEqual({ ok: true, items: [{ Id: 'a' }, { Id: 'b' }], pages: 2 });
  });

  it('a PagedResultSet, continued with its bookmark until HasMoreItems is false', async () => {
    bodies.set('bookmarked/', (url) => {
      const at = url.searchParams.get('bookmark');
      return at === null ? { PagingInfo: { Bookmark: 'b-1', HasMoreItems: true }, Items: [1, 2] } : { PagingInfo: { Bookmark: 'b-2', HasMoreItems: false }, Items: [at] };
    });
    expect(await readList(session, session.leUrl(1, 'bookmarked/'))).toEqual({ ok: true, items: [1, 2, 'b-1'], pages: 2 });
  });

  it('refuses a Next on another site, and stops a Next that loops', async () => {
    bodies.set('elsewhere/', () => ({ Objects: [1], Next: 'https://attacker.example/d2l/api/le/1.91/1/elsewhere/?bookmark=1' }));
    expect(await readList(session, session.leUrl(1, 'elsewhere/'))).toMatchObject({ ok: false, problem: 'unreadable', pages: 1 });
    bodies.set('loop/', () => ({ Objects: [1], Next: '/d2l/api/le/1.91/1/loop/' }));
    expect(await readList(session, session.leUrl(1, 'loop/'))).toMatchObject({ ok: false, problem: 'unreadable', pages: 1 });
  });

  it('tells a list it cannot read, and a route the site does not have, from an empty list', async () => {
    bodies.set('not-a-list/', () => ({ Errors: [{ Message: 'Oops' }] }));
    expect(await readList(session, session.leUrl(1, 'not-a-list/'))).toMatchObject({ ok: false, problem: 'unreadable' });
    expect(await readList(session, session.leUrl(1, 'no-such-route/'))).toMatchObject({ ok: false, problem: 'not-offered', status: 404 });
    bodies.set('empty/', () => ({ Objects: [], Next: null }));
    expect(await readList(session, session.leUrl(1, 'empty/'))).toEqual({ ok: true, items: [], pages: 1 });
  });

  it('skips and counts the entries a parser cannot read', async () => {
    bodies.set('folders/', () => [{ Id: 7, Name: 'Lab' }, { Name: 'no id' }, 'junk', { Id: '8', Name: 'Id as text' }]);
    const reading = await readListOf(session, session.leUrl(1, 'folders/'), parseDropboxFolder);
    expect(reading.ok && reading.value.map((folder) => [folder.id, folder.name])).toEqual([[7, 'Lab'], [8, 'Id as text']]);
    expect(reading.ok && reading.skipped).toBe(2);
  });
});

describe('parsing what real sites send', () => {
  it('keeps unknown fields and reads a field of the wrong type as absent', () => {
    const folder = parseDropboxFolder({
      Id: 501, Name: 'Lab', IsHidden: 'yes', DueDate: 'not a date', GradeItemId: 0, AllowableFileType: 3, CustomAllowableFileTypes: ['.arr'],
      Availability: { StartDate: '2026-09-01T04:00:00Z', EndDate: null }, LinkAttachments: [{ LinkId: 1, LinkName: 'Handout', Href: 'https://example.edu/h.pdf' }, { LinkId: 2 }],
      ActivityId: 'https://ids.brightspace.com/activities/dropbox/ACME-7001', CustomInstructions: { Text: 'Upload <b>a PDF</b>', Html: '' },
    });
    expect(folder).toMatchObject({
      id: 501, hidden: false, due: null, gradeItemId: null, start: new Date('2026-09-01T04:00:00Z'), end: null, code: 'ACME-7001',
      linkAttachments: [{ name: 'Handout', href: 'https://example.edu/h.pdf' }],
      // Only the plain text came: it stays text.
      instructions: 'Upload &lt;b&gt;a PDF&lt;/b&gt;',
    });
    expect(folder?.raw.CustomAllowableFileTypes).toEqual(['.arr']);
  });

  it('reads the quiz blocks one level deeper, only those shown to students', () => {
    const quiz = parseQuiz({
      QuizId: 801, Name: 'Quiz 1', IsActive: false, GradeItemId: 502, DueDate: '2026-09-19T03:59:00.000Z',
      Description: { Text: { Text: 'Lorem', Html: '<p>Lorem</p>' }, IsDisplayed: true },
      Instructions: { Text: { Text: 'Hidden', Html: '<p>Hidden</p>' }, IsDisplayed: false },
      Header: { Text: { Text: '', Html: '' }, IsDisplayed: true }, Footer: 'not an object', TimeLimit: 'no such field',
    });
    expect(quiz).toMatchObject({ id: 801, hidden: true, gradeItemId: 502, texts: [{ block: 'description', html: '<p>Lorem</p>' }] });
    expect(parseQuiz({ Name: 'no id' })).toBeNull();
  });

  it('reads grade items as live sites send them: CategoryId 0, GradeType as text or number, no IsHidden', () => {
    expect(parseGradeItem({ Id: 5, Name: 'Lab', GradeType: 'Numeric', CategoryId: 0, Weight: 10, IsBonus: true, AssociatedTool: { ToolId: 2000, ToolItemId: 7001 } })).toMatchObject({
      categoryId: null, type: 'Numeric', weight: 10, isBonus: true, hidden: false, tool: { toolId: 2000, toolItemId: 7001 },
    });
    expect(parseGradeItem({ Id: 6, GradeType: 5, CategoryId: 12, Weight: '12.5', AssociatedTool: { ToolId: 'x' } })).toMatchObject({ type: 'Calculated', categoryId: 12, weight: 12.5, tool: null });
    expect(parseGradeCategory({ Id: 12, Name: 'Labs', Weight: null, Grades: [{ Id: 6 }, { Name: 'no id' }], Description: { Content: '<p>x</p>', Type: 'Html' } })).toMatchObject({ weight: null, itemIds: [6] });
  });

  it('reads a RichText in either shape, and module fields as a module', () => {
    expect(richTextHtml({ Content: '<p>Html</p>', Type: 'Html' })).toBe('<p>Html</p>');
    expect(richTextHtml({ Content: 'a < b', Type: 'Text' })).toBe('a &lt; b');
    expect(richTextHtml({ Text: 'x', Html: null })).toBe('x');
    expect(richTextHtml(null)).toBe('');
    expect(parseContentObject({ Id: 9, Title: 'Week 1', ModuleStartDate: null, Description: { Text: '', Html: '<p>Hi</p>' } })).toMatchObject({ kind: 'module', description: '<p>Hi</p>' });
    expect(parseContentObject({ Id: 91, Type: 1, DueDate: '2026-09-14T03:59:00.000Z', ToolItemId: 7001, ActivityType: 3, GradeItemId: 501, AssociatedGradeItemIds: [501, 502, 'x'] })).toMatchObject({
      kind: 'topic', due: new Date('2026-09-14T03:59:00.000Z'), toolItemId: 7001, activityType: 3, gradeItemIds: [501, 502],
    });
  });

  it('reads discussions and announcements, a draft counting as hidden', () => {
    expect(parseForum({ ForumId: 31, Name: 'Q&A', IsHidden: true })).toMatchObject({ id: 31, hidden: true });
    expect(parseDiscussionTopic({ TopicId: 902, Name: 'Intro', DueDate: '2026-09-12T03:59:00.000Z', UnApprovedPostCount: 0 }, 31)).toMatchObject({ id: 902, forumId: 31 });
    expect(parseNewsItem({ Id: 900, Title: 'Welcome', IsHidden: false, IsPublished: false, Body: { Text: 't', Html: '<p>t</p>' } })).toMatchObject({ hidden: true, body: '<p>t</p>' });
  });

  it('flattens nested release-condition expressions and finds the item each condition names', () => {
    const conditions = parseConditions({
      Expression: {
        Type: 'Expression', State: null, Text: { Text: '', Html: null },
        ExpressionParams: {
          Operator: 'All',
          Operands: [
            { Type: 'SubmitsQuizAttempt', State: 'opaque', Text: { Text: 'Submitted a quiz attempt: Quiz 1', Html: null }, QuizId: 801 },
            { Type: 'Expression', ExpressionParams: { Operator: 'Any', Operands: [{ Type: 'ReceivesScoreOnGradeItem', Text: { Text: 'Score on Lab' }, Params: { GradeObjectId: 44 } }] } },
            { Type: 'EnrolledInGroup', Text: { Text: 'In group A' }, GroupId: 3 },
            { Type: 'RoundTrip', State: 'xyz' },
          ],
        },
      },
    });
    expect(conditions).toEqual([
      { type: 'SubmitsQuizAttempt', text: 'Submitted a quiz attempt: Quiz 1', target: { kind: 'quiz', id: 801 } },
      { type: 'ReceivesScoreOnGradeItem', text: 'Score on Lab', target: { kind: 'grade-item', id: 44 } },
      { type: 'EnrolledInGroup', text: 'In group A', target: null },
      { type: 'RoundTrip', text: '', target: null },
    ]);
    expect(parseConditions({ Expression: { Type: 'Expression', ExpressionParams: { Operator: 'All', Operands: [] } } })).toEqual([]);
    expect(parseConditions('<html>')).toBeNull();
  });
});
