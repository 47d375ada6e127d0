// The quizzes tool: each quiz's blocks students see (description, instructions, header, footer),
// dates, grade item and whether it is active, as activity records.
import { readQuizzes } from '../brightspace/quizzes.ts';
import type { ActivityRecord, ToolReading } from './activity-record.ts';
import { valueOf } from './read-notes.ts';

/** Every quiz of the course; null (and a note) when the tool cannot be read. */
export async function readQuizTool(tool: ToolReading): Promise<ActivityRecord[] | null> {
  const { ctx, urls } = tool;
  const quizzes = valueOf(ctx, 'quizzes', await tool.counted(readQuizzes(ctx.session, ctx.orgUnitId)), tool.accessEndedOn);
  return quizzes?.map((quiz): ActivityRecord => ({
    activity: { kind: 'quiz', id: quiz.id, title: quiz.name, hidden: quiz.hidden, code: quiz.code, viewUrl: urls.quiz(quiz.id) },
    scope: 'quizzes',
    html: quiz.texts.map((text) => text.html).join('\n'),
    dates: { start: quiz.start, end: quiz.end, due: quiz.due },
    links: [],
    gradeItemId: quiz.gradeItemId,
    conditionOwner: { kind: 'quiz', id: quiz.id },
  })) ?? null;
}
