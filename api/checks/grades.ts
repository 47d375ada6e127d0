// Gradebook checks: activities graded into a grade item that no longer exists, a weighted gradebook
// whose weights do not add up to 100 (counted as Brightspace counts them), and grade items no
// activity feeds.
import { GRADED_TOOLS, type GradeCategory, type GradeItem, type Gradebook, type GradedActivity, type GradedTool } from '../brightspace/grades.ts';
import { msg, type Message } from '../i18n/messages.ts';
import { finding } from './catalogue.ts';
import type { Finding } from './finding.ts';
import { itemPlace, type ItemPlace } from '../brightspace/places.ts';

/** Whether a tool's item exists: `unknown` when that tool was not read. */
export type ToolItemExistence = (tool: GradedTool, id: number) => 'found' | 'missing' | 'unknown';

export interface GradebookPlaces {
  /** The gradebook as a whole. */
  gradebook: ItemPlace;
  gradebookUrl: string | null;
  item(item: GradeItem): ItemPlace;
  category(category: GradeCategory): ItemPlace;
  itemUrl(id: number): string | null;
}

const TOLERANCE = 0.01;
/** Grade items that carry a score of their own; calculated, formula, final and text items do not. */
const SCORED_TYPES = new Set(['numeric', 'passfail', 'selectbox']);

function isScored(item: GradeItem): boolean {
  return SCORED_TYPES.has(item.type.toLowerCase());
}

/** Counted in the final grade: scored, not bonus, not excluded. */
function counts(item: GradeItem): boolean {
  return isScored(item) && !item.isBonus && !item.excluded;
}

function percent(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** grades.missing-item: activities whose grade item is not in the gradebook. */
export function missingGradeItemFindings(activities: GradedActivity[], gradebook: Gradebook): Finding[] {
  const known = new Set(gradebook.items.map((item) => item.id));
  return activities
    .filter((activity) => !known.has(activity.gradeItemId))
    .map((activity) =>
      finding('grades.missing-item', activity.place, activity.url, msg('finding.grades.missing-item', { kind: activity.place.itemType.replaceAll('-', '_'), id: String(activity.gradeItemId) }), {
        subject: `grade-item:${activity.gradeItemId}`,
      }),
    );
}

/**
 * grades.weights-not-100, for a weighted gradebook. The final grade adds each category once and each
 * item outside a category; bonus and excluded items and excluded categories add nothing. Within a
 * category, item weights are read either as shares of the category (adding up to 100) or as shares
 * of the final grade (adding up to the category's weight): sites report one or the other, and
 * either is consistent.
 */
export function weightFindings(gradebook: Gradebook, places: GradebookPlaces): Finding[] {
  if ((gradebook.setup?.gradingSystem ?? '').toLowerCase() !== 'weighted') return [];
  const categories = new Map(gradebook.categories.map((category) => [category.id, category]));
  const categoryOf = (item: GradeItem) => (item.categoryId === null ? undefined : categories.get(item.categoryId));
  const findings: Finding[] = [];

  const counted = gradebook.categories.filter((category) => !category.excluded && category.weight !== null);
  const loose = gradebook.items.filter((item) => counts(item) && categoryOf(item) === undefined && item.weight !== null);
  if (counted.length + loose.length > 0) {
    const total = counted.reduce((sum, category) => sum + category.weight!, 0) + loose.reduce((sum, item) => sum + item.weight!, 0);
    if (Math.abs(total - 100) > TOLERANCE) {
      const parts: Message = msg('finding.grades.weight-parts', { categories: counted.length, items: loose.length });
      findings.push(finding('grades.weights-not-100', places.gradebook, places.gradebookUrl, msg('finding.grades.weights-not-100', { total: percent(total), parts }), { subject: 'final-grade' }));
    }
  }

  for (const category of gradebook.categories) {
    if (category.excluded) continue;
    const members = gradebook.items.filter((item) => counts(item) && categoryOf(item) === category && item.weight !== null);
    const total = members.reduce((sum, item) => sum + item.weight!, 0);
    if (members.length === 0 || total === 0) continue;
    const ofCategory = Math.abs(total - 100) <= TOLERANCE;
    const ofFinal = category.weight !== null && Math.abs(total - category.weight) <= TOLERANCE;
    if (ofCategory || ofFinal) continue;
    findings.push(
      finding('grades.weights-not-100', places.category(category), places.gradebookUrl, msg('finding.grades.category-weights', { total: percent(total), weight: percent(category.weight ?? 0), count: members.length }), {
        subject: `category:${category.id}`,
      }),
    );
  }
  return findings;
}

/**
 * grades.unassociated-item: a scored grade item no activity feeds, so every score is entered by
 * hand; or one tied to a tool item that no longer exists. Items tied to a tool CTPO did not read,
 * or to a tool it does not know, count as fed.
 */
export function unassociatedFindings(gradebook: Gradebook, activities: GradedActivity[], exists: ToolItemExistence, places: GradebookPlaces, referencesComplete: boolean): Finding[] {
  const referenced = new Set(activities.map((activity) => activity.gradeItemId));
  const findings: Finding[] = [];
  for (const item of gradebook.items) {
    if (!isScored(item) || referenced.has(item.id)) continue;
    if (item.tool !== null) {
      const tool = GRADED_TOOLS[item.tool.toolId as keyof typeof GRADED_TOOLS] as GradedTool | undefined;
      if (tool === undefined || exists(tool, item.tool.toolItemId) !== 'missing') continue;
      findings.push(
        finding('grades.unassociated-item', places.item(item), places.itemUrl(item.id), msg('finding.grades.tool-item-gone', { tool: tool.replaceAll('-', '_'), id: String(item.tool.toolItemId) }), {
          subject: 'association',
        }),
      );
      continue;
    }
    if (!referencesComplete) continue;
    findings.push(finding('grades.unassociated-item', places.item(item), places.itemUrl(item.id), msg('finding.grades.unassociated-item'), { subject: 'association' }));
  }
  return findings;
}

/** Where the gradebook's findings go: the gradebook as a whole under the course, each grade item and category under its own name. */
export interface GradebookContext {
  orgUnitId: number;
  courseTitle: string;
  /** The gradebook's page in Brightspace. */
  gradebookUrl: string;
  /** Assignments and quizzes were both read, so an item no activity names is truly unused. */
  referencesComplete: boolean;
}

/** Every gradebook finding, placed: each activity where it was read (under the quicklink topic that opens it, or course-wide). */
export function gradebookFindings(gradebook: Gradebook, graded: GradedActivity[], exists: ToolItemExistence, context: GradebookContext): Finding[] {
  const { gradebookUrl } = context;
  const places: GradebookPlaces = {
    gradebook: itemPlace('course', context.orgUnitId, context.courseTitle),
    gradebookUrl,
    item: (item) => itemPlace('grade-item', item.id, item.name),
    category: (category) => itemPlace('grade-item', category.id, category.name),
    itemUrl: () => gradebookUrl,
  };
  return [
    ...missingGradeItemFindings(graded, gradebook),
    ...weightFindings(gradebook, places),
    ...unassociatedFindings(gradebook, graded, exists, places, context.referencesComplete),
  ];
}
