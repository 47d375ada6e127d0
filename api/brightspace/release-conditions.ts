// Release conditions (…/releaseconditions on a content topic, quiz, assignment folder or discussion
// topic): D2L documents the ConditionsData shape, `{ Expression: { ExpressionParams: { Operator,
// Operands: [condition | expression...] } } }`, but not every condition type's parameters, and the
// route family is not offered everywhere. So the conditions are read tolerantly: each condition's
// type says what kind of item it depends on, and an id field naming that kind (at the top level or
// in a nested params object) says which one. A 404 means the site does not offer these routes.
import type { BrightspaceSession } from './session.ts';
import { readOneOf, type Reading } from './reading.ts';
import { idField, isRecord, richTextHtml, textField } from './valence-fields.ts';

export type ConditionTarget = 'assignment' | 'quiz' | 'discussion-topic' | 'topic' | 'grade-item';

export interface ReleaseCondition {
  type: string;
  /** The condition as Brightspace words it, e.g. "Submitted a quiz attempt: Quiz 1". */
  text: string;
  target: { kind: ConditionTarget; id: number } | null;
}

export type ConditionOwner =
  | { kind: 'topic'; id: number }
  | { kind: 'quiz'; id: number }
  | { kind: 'assignment'; id: number }
  | { kind: 'discussion-topic'; id: number; forumId: number };

const TARGET_OF_TYPE: [RegExp, ConditionTarget, RegExp][] = [
  [/dropbox|feedback/i, 'assignment', /dropbox|folder/i],
  [/quiz/i, 'quiz', /quiz/i],
  [/postsintopic/i, 'discussion-topic', /topic/i],
  [/contenttopic/i, 'topic', /topic/i],
  [/gradeitem/i, 'grade-item', /grade/i],
];

/** Id fields of a condition: its own, and those of nested params objects. */
function idFields(record: Record<string, unknown>, depth = 0): [string, number][] {
  const found: [string, number][] = [];
  for (const [name, value] of Object.entries(record)) {
    if (/id$/i.test(name) && name !== 'Id') {
      const id = idField(value);
      if (id !== null) found.push([name, id]);
    } else if (isRecord(value) && depth < 2 && name !== 'Text') {
      found.push(...idFields(value, depth + 1));
    }
  }
  return found;
}

function parseCondition(raw: Record<string, unknown>): ReleaseCondition {
  const type = textField(raw.Type) ?? '';
  const text = isRecord(raw.Text) ? (textField(raw.Text.Text) ?? richTextHtml(raw.Text)) : (textField(raw.Text) ?? '');
  let target: ReleaseCondition['target'] = null;
  const rule = TARGET_OF_TYPE.find(([pattern]) => pattern.test(type));
  if (rule) {
    const ids = idFields(raw);
    const named = ids.find(([name]) => rule[2].test(name)) ?? (ids.length === 1 ? ids[0] : undefined);
    if (named) target = { kind: rule[1], id: named[1] };
  }
  return { type, text, target };
}

/** Every condition of a ConditionsData body, nested expressions flattened; null if not that shape. */
export function parseConditions(body: unknown): ReleaseCondition[] | null {
  if (!isRecord(body)) return null;
  const root = isRecord(body.Expression) ? body.Expression : body;
  const conditions: ReleaseCondition[] = [];
  const walk = (node: Record<string, unknown>, depth: number) => {
    const params = isRecord(node.ExpressionParams) ? node.ExpressionParams : null;
    if (params !== null) {
      if (depth > 10 || !Array.isArray(params.Operands)) return;
      for (const operand of params.Operands) if (isRecord(operand)) walk(operand, depth + 1);
      return;
    }
    if (node.Type !== 'Expression') conditions.push(parseCondition(node));
  };
  walk(root, 0);
  return conditions;
}

function routeOf(owner: ConditionOwner): string {
  switch (owner.kind) {
    case 'topic':
      return `content/topics/${owner.id}/releaseconditions`;
    case 'quiz':
      return `quizzes/${owner.id}/releaseconditions`;
    case 'assignment':
      return `dropbox/folders/${owner.id}/releaseconditions`;
    case 'discussion-topic':
      return `discussions/forums/${owner.forumId}/topics/${owner.id}/releaseconditions`;
  }
}

export function readReleaseConditions(session: BrightspaceSession, orgUnitId: number, owner: ConditionOwner): Promise<Reading<ReleaseCondition[]>> {
  return readOneOf(session, session.leUrl(orgUnitId, routeOf(owner)), parseConditions);
}
