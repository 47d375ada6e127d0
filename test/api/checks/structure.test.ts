import { describe, expect, it } from 'vitest';
import { selectModules } from '../../../api/brightspace/toc.ts';
import { checkStructure, dateFindings } from '../../../api/checks/structure.ts';
import { itemPlace } from '../../../api/brightspace/places.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';
import type { TocModule } from '../../../api/brightspace/types.ts';

const NOW = new Date('2026-03-01T12:00:00Z');

function run(modules: TocModule[]) {
  return checkStructure(selectModules({ Modules: modules }, 'all'), NOW).map((f) => `${f.check} ${f.severity} ${f.moduleId}/${f.topicId ?? '-'}`);
}

const topic = (id: number, fields: Record<string, unknown> = {}) => ({ TopicId: id, Title: `Topic ${id}`, ...fields });

describe('checkStructure', () => {
  it('structure.broken: a topic Brightspace flags broken, not one that is fine', () => {
    expect(run([{ ModuleId: 1, Title: 'M', Topics: [topic(11, { IsBroken: true }), topic(12, { IsBroken: false })] }])).toEqual([
      'structure.broken error 1/11',
    ]);
  });

  it('structure.hidden: hidden modules once, hidden topics in visible modules, nothing for visible items', () => {
    expect(
      run([
        { ModuleId: 1, Title: 'Hidden', IsHidden: true, Topics: [topic(11, { IsHidden: true })], Modules: [{ ModuleId: 2, Title: 'Inner', IsHidden: true, Topics: [topic(21)] }] },
        { ModuleId: 3, Title: 'Shown', IsHidden: false, Topics: [topic(31, { IsHidden: true }), topic(32, { IsHidden: false })] },
      ]),
    ).toEqual(['structure.hidden warning 1/-', 'structure.hidden warning 3/31']);
  });

  it('structure.empty-module: no topics and no modules; a module holding only a module is not empty', () => {
    expect(run([{ ModuleId: 1, Title: 'Outer', Modules: [{ ModuleId: 2, Title: 'Inner', Topics: [topic(21)] }] }, { ModuleId: 3, Title: 'Empty' }])).toEqual([
      'structure.empty-module warning 3/-',
    ]);
  });

  it('structure.date-order: end before start, due after end; ordered dates pass', () => {
    expect(
      run([
        {
          ModuleId: 1,
          Title: 'M',
          StartDateTime: '2026-04-10T00:00:00Z',
          EndDateTime: '2026-04-01T00:00:00Z',
          Topics: [
            topic(11, { EndDateTime: '2026-05-01T00:00:00Z', DueDateTime: '2026-05-02T00:00:00Z' }),
            topic(12, { StartDateTime: '2026-04-01T00:00:00Z', DueDateTime: '2026-04-15T00:00:00Z', EndDateTime: '2026-04-20T00:00:00Z' }),
            topic(13, { StartDateTime: 'not a date', EndDateTime: null }),
          ],
        },
      ]),
    ).toEqual(['structure.date-order error 1/-', 'structure.date-order error 1/11']);
  });

  it('structure.past-date: an end or due date before now; a start date in the past is normal', () => {
    expect(
      run([
        {
          ModuleId: 1,
          Title: 'M',
          StartDateTime: '2025-01-01T00:00:00Z',
          Topics: [topic(11, { DueDateTime: '2026-02-01T00:00:00Z' }), topic(12, { EndDateTime: '2026-06-01T00:00:00Z', StartDateTime: '2026-01-01T00:00:00Z' })],
        },
      ]),
    ).toEqual(['structure.past-date warning 1/11']);
  });

  it('structure.duplicate-title: siblings sharing a title (case and spaces aside); same title elsewhere is fine', () => {
    expect(
      run([
        { ModuleId: 1, Title: 'Week 1', Topics: [topic(11, { Title: 'Reading' }), topic(12, { Title: ' reading ' }), topic(13, { Title: 'Quiz' })] },
        { ModuleId: 2, Title: 'Week 2', Topics: [topic(21, { Title: 'Reading' })] },
        { ModuleId: 3, Title: 'week 1', Topics: [topic(31)] },
      ]),
    ).toEqual(['structure.duplicate-title warning 1/12', 'structure.duplicate-title warning 3/-']);
  });
});

describe('one wrong date is one finding', () => {
  const place = itemPlace('discussion-topic', 7, 'Drafts');
  const course = { start: new Date('2026-08-31T00:00:00Z'), end: new Date('2026-12-23T00:00:00Z') };
  const now = new Date('2026-09-14T15:00:00Z');

  it('tells a date both passed and outside the course once, as outside the course', () => {
    const found = dateFindings({ start: null, end: null, due: new Date('2026-08-15T00:00:00Z') }, place, now, course);
    expect(found.map((finding) => finding.check)).toEqual(['structure.date-outside-course']);
    expect(formatMessage(found[0]!.message)).toContain('due on 2026-08-15, outside the course');
  });

  it('still tells a passed date inside the course, and each of two different wrong dates', () => {
    const dates = { start: null, end: new Date('2026-09-01T00:00:00Z'), due: new Date('2027-01-05T00:00:00Z') };
    const found = dateFindings(dates, place, now, course);
    expect(found.map((finding) => `${finding.check} ${finding.subject}`)).toEqual(['structure.date-order dates', 'structure.past-date dates', 'structure.date-outside-course course-dates']);
    // Without the course's dates, a passed date is told as passed.
    expect(dateFindings({ start: null, end: null, due: new Date('2026-08-15T00:00:00Z') }, place, now).map((finding) => finding.check)).toEqual(['structure.past-date']);
  });
});
