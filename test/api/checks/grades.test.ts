// The gradebook checks, each with a case and the look-alike it must leave alone: a grade item that
// no longer exists; weights as Brightspace counts them (a weighted gradebook at 100 with a bonus
// item is right); grade items no activity feeds (one a quiz uses is fed).
import { describe, expect, it } from 'vitest';
import type { GradeCategory, GradeItem, Gradebook, GradedActivity } from '../../../api/brightspace/grades.ts';
import { itemPlace } from '../../../api/brightspace/places.ts';
import { missingGradeItemFindings, unassociatedFindings, weightFindings, type GradebookPlaces } from '../../../api/checks/grades.ts';
import { formatMessage } from '../../../api/i18n/messages.ts';

function item(id: number, fields: Partial<GradeItem> = {}): GradeItem {
  return { id, name: `Item ${id}`, type: 'Numeric', categoryId: null, weight: null, isBonus: false, excluded: false, hidden: false, tool: null, raw: {}, ...fields };
}
function category(id: number, weight: number | null, fields: Partial<GradeCategory> = {}): GradeCategory {
  return { id, name: `Category ${id}`, weight, excluded: false, itemIds: [], raw: {}, ...fields };
}
const weighted = (items: GradeItem[], categories: GradeCategory[] = []): Gradebook => ({ setup: { gradingSystem: 'Weighted', raw: {} }, items, categories });
const places: GradebookPlaces = {
  gradebook: itemPlace('course', 1, 'Course'),
  gradebookUrl: 'https://school.example.com/grades',
  item: (entry) => itemPlace('grade-item', entry.id, entry.name),
  category: (entry) => itemPlace('grade-item', entry.id, entry.name),
  itemUrl: () => 'https://school.example.com/grades',
};
const quizUsing = (gradeItemId: number): GradedActivity => ({ place: itemPlace('quiz', 31, 'Quiz 1'), url: 'https://school.example.com/quiz', gradeItemId });
const text = (findings: { message: Parameters<typeof formatMessage>[0] }[]) => findings.map((found) => formatMessage(found.message));

describe('grades.missing-item', () => {
  it('finds an activity graded into a grade item the gradebook does not have', () => {
    const findings = missingGradeItemFindings([quizUsing(99)], weighted([item(1)]));
    expect(findings).toMatchObject([{ check: 'grades.missing-item', severity: 'error', itemType: 'quiz', itemId: 31 }]);
    expect(text(findings)).toEqual(['This quiz is graded into grade item 99, which no longer exists in the gradebook: its scores go nowhere. Link it to a grade item in its settings.']);
  });

  it('leaves an activity whose grade item exists alone', () => {
    expect(missingGradeItemFindings([quizUsing(1)], weighted([item(1)]))).toEqual([]);
  });
});

describe('grades.weights-not-100', () => {
  it('finds a weighted gradebook whose categories and loose items add up to 90', () => {
    const findings = weightFindings(weighted([item(1, { weight: 30 }), item(2, { weight: 100, categoryId: 7 })], [category(7, 60)]), places);
    expect(findings).toMatchObject([{ check: 'grades.weights-not-100', severity: 'error', itemType: 'course' }]);
    expect(text(findings)).toEqual(["This weighted gradebook's weights add up to 90% instead of 100% (1 category and 1 item outside categories; bonus and excluded items left out). Adjust the weights in Grades, Manage Grades."]);
  });

  it('leaves a weighted gradebook at 100 with a bonus item, an excluded item and an excluded category alone', () => {
    const gradebook = weighted(
      [
        item(1, { weight: 40 }),
        item(2, { weight: 15, isBonus: true }),
        item(3, { weight: 25, excluded: true }),
        item(4, { weight: 50, categoryId: 7 }),
        item(5, { weight: 50, categoryId: 7 }),
        item(6, { weight: 10, type: 'Text' }),
        item(8, { weight: 100, categoryId: 9 }),
      ],
      [category(7, 60), category(9, 20, { excluded: true })],
    );
    expect(weightFindings(gradebook, places)).toEqual([]);
  });

  it('finds a category whose items add up to neither 100 nor the category weight; takes either reading', () => {
    const wrong = weightFindings(weighted([item(1, { weight: 25, categoryId: 7 }), item(2, { weight: 25, categoryId: 7 }), item(3, { weight: 60 })], [category(7, 40)]), places);
    expect(wrong).toMatchObject([{ check: 'grades.weights-not-100', itemType: 'grade-item', itemId: 7 }]);
    // Shares of the final grade (20 + 20 = the category's 40) are as right as shares of the category.
    expect(weightFindings(weighted([item(1, { weight: 20, categoryId: 7 }), item(2, { weight: 20, categoryId: 7 }), item(3, { weight: 60 })], [category(7, 40)]), places)).toEqual([]);
  });

  it('leaves a gradebook counted in points alone, whatever its weights', () => {
    expect(weightFindings({ setup: { gradingSystem: 'Points', raw: {} }, items: [item(1, { weight: 3 })], categories: [] }, places)).toEqual([]);
  });
});

describe('grades.unassociated-item', () => {
  const exists = (_tool: string, id: number) => (id === 31 ? 'found' : id === 77 ? 'unknown' : 'missing') as 'found' | 'missing' | 'unknown';

  it('finds a scored item nothing feeds, and one tied to an activity that no longer exists', () => {
    const gradebook = weighted([item(1, { name: 'Participation' }), item(2, { tool: { toolId: 2000, toolItemId: 55 } })]);
    const findings = unassociatedFindings(gradebook, [], exists, places, true);
    expect(findings).toMatchObject([
      { check: 'grades.unassociated-item', severity: 'info', itemType: 'grade-item', itemId: 1, itemTitle: 'Participation' },
      { check: 'grades.unassociated-item', itemId: 2 },
    ]);
    expect(text(findings)[1]).toBe('This grade item is tied to assignment folder 55, which no longer exists: no scores will reach it. Delete the grade item, or link the activity that replaced it.');
  });

  it('leaves alone a grade item a quiz uses, one tied to an existing or unread activity, and calculated items', () => {
    const gradebook = weighted([
      item(1),
      item(2, { tool: { toolId: 51000, toolItemId: 31 } }),
      item(3, { tool: { toolId: 3000, toolItemId: 77 } }),
      item(4, { tool: { toolId: 78000, toolItemId: 5 } }),
      item(5, { type: 'Calculated' }),
      item(6, { type: 'FinalCalculated' }),
    ]);
    expect(unassociatedFindings(gradebook, [quizUsing(1)], exists, places, true)).toEqual([]);
  });

  it('does not call an item unused when the assignments or quizzes could not be read', () => {
    expect(unassociatedFindings(weighted([item(1)]), [], exists, places, false)).toEqual([]);
  });
});
