// The gradebook (grades/, grades/categories/, grades/setup/, all bare arrays or objects): grade
// items with their category, weight, bonus and exclusion flags and the tool item they grade;
// categories with their weight; and whether the course is graded by points, weights or formula.
import type { ItemPlace } from './places.ts';
import type { BrightspaceSession } from './session.ts';
import { readListOf, readOneOf, type Reading } from './reading.ts';
import { boolField, idField, isRecord, numberField, textField, type RawRecord } from './valence-fields.ts';

/** Tools a grade item's AssociatedTool names (not documented by D2L; seen on live sites). */
export const GRADED_TOOLS = { 2000: 'assignment', 51000: 'quiz', 3000: 'discussion-topic' } as const;
export type GradedTool = (typeof GRADED_TOOLS)[keyof typeof GRADED_TOOLS];

export interface GradeItem {
  id: number;
  name: string;
  /** Numeric, PassFail, SelectBox, Text, Calculated, Formula, FinalCalculated, FinalAdjusted... */
  type: string;
  /** Null when the item sits outside any category (Brightspace sends 0 or null). */
  categoryId: number | null;
  weight: number | null;
  isBonus: boolean;
  excluded: boolean;
  hidden: boolean;
  tool: { toolId: number; toolItemId: number } | null;
  raw: RawRecord;
}

export interface GradeCategory {
  id: number;
  name: string;
  weight: number | null;
  excluded: boolean;
  /** The ids of the grade items the category lists. */
  itemIds: number[];
  raw: RawRecord;
}

export interface GradeSetup {
  /** Points, Weighted or Formula. */
  gradingSystem: string | null;
  raw: RawRecord;
}

const TYPE_NAMES: Record<number, string> = { 1: 'Numeric', 2: 'PassFail', 3: 'SelectBox', 4: 'Text', 5: 'Calculated', 6: 'Formula', 7: 'FinalCalculated', 8: 'FinalAdjusted', 9: 'Category' };

export function parseGradeItem(raw: unknown): GradeItem | null {
  if (!isRecord(raw)) return null;
  const id = idField(raw.Id);
  if (id === null) return null;
  const numericType = numberField(raw.GradeType);
  const type = typeof raw.GradeType === 'string' && !/^\d+$/.test(raw.GradeType) ? raw.GradeType : (TYPE_NAMES[numericType ?? -1] ?? 'Unknown');
  const categoryId = idField(raw.CategoryId);
  const tool = isRecord(raw.AssociatedTool) ? raw.AssociatedTool : null;
  const toolId = tool === null ? null : idField(tool.ToolId);
  const toolItemId = tool === null ? null : idField(tool.ToolItemId);
  return {
    id,
    name: textField(raw.Name) ?? '',
    type,
    categoryId: categoryId === 0 ? null : categoryId,
    weight: numberField(raw.Weight),
    isBonus: boolField(raw.IsBonus) ?? false,
    excluded: boolField(raw.ExcludeFromFinalGradeCalculation) ?? false,
    hidden: boolField(raw.IsHidden) ?? false,
    tool: toolId !== null && toolItemId !== null ? { toolId, toolItemId } : null,
    raw,
  };
}

export function parseGradeCategory(raw: unknown): GradeCategory | null {
  if (!isRecord(raw)) return null;
  const id = idField(raw.Id);
  if (id === null) return null;
  const grades = Array.isArray(raw.Grades) ? raw.Grades : [];
  return {
    id,
    name: textField(raw.Name) ?? '',
    weight: numberField(raw.Weight),
    excluded: boolField(raw.ExcludeFromFinalGrade) ?? false,
    itemIds: grades.flatMap((grade) => {
      const itemId = isRecord(grade) ? idField(grade.Id) : null;
      return itemId === null ? [] : [itemId];
    }),
    raw,
  };
}

export function parseGradeSetup(raw: unknown): GradeSetup | null {
  if (!isRecord(raw)) return null;
  return { gradingSystem: textField(raw.GradingSystem), raw };
}

export function readGradeItems(session: BrightspaceSession, orgUnitId: number): Promise<Reading<GradeItem[]>> {
  return readListOf(session, session.leUrl(orgUnitId, 'grades/'), parseGradeItem);
}

export function readGradeCategories(session: BrightspaceSession, orgUnitId: number): Promise<Reading<GradeCategory[]>> {
  return readListOf(session, session.leUrl(orgUnitId, 'grades/categories/'), parseGradeCategory);
}

export function readGradeSetup(session: BrightspaceSession, orgUnitId: number): Promise<Reading<GradeSetup>> {
  return readOneOf(session, session.leUrl(orgUnitId, 'grades/setup/'), parseGradeSetup);
}

/** The gradebook as read: its setup (weighted or points), items and categories. */
export interface Gradebook {
  setup: GradeSetup | null;
  items: GradeItem[];
  categories: GradeCategory[];
}

/** An activity (assignment, quiz, content topic) that names its grade item. */
export interface GradedActivity {
  place: ItemPlace;
  url: string | null;
  gradeItemId: number;
}
