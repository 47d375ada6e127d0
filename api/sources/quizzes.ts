// The quizzes tool: each quiz's blocks students see (description, instructions, header, footer),
// dates, grade item and whether it is active, as activity records; and the questions of the quizzes
// the run checks, each handed on as a fragment placed at its quiz and question number.
import pLimit from 'p-limit';
import { questionPlace, type ItemPlace } from '../brightspace/places.ts';
import { readQuizQuestions } from '../brightspace/quiz-questions.ts';
import { readQuizzes } from '../brightspace/quizzes.ts';
import { msg } from '../i18n/messages.ts';
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

/** A quiz the run checks, in the place students open it from. */
export interface CheckedQuiz {
  id: number;
  place: ItemPlace;
  viewUrl: string;
}

/**
 * Reads the questions of each quiz and hands each question's texts (the question, its answer
 * choices, hint and feedback) on as one fragment. A site without the route or an account that may
 * not read questions gives a note, once, never a failure.
 */
export async function emitQuizQuestions(tool: ToolReading, quizzes: readonly CheckedQuiz[]): Promise<void> {
  const { ctx } = tool;
  if (quizzes.length === 0) return;
  tool.planned(quizzes.length);
  await pLimit(tool.concurrency).map(quizzes, async (quiz) => {
    ctx.signal?.throwIfAborted();
    const reading = await tool.counted(readQuizQuestions(ctx.session, ctx.orgUnitId, quiz.id));
    if (!reading.ok) {
      const { status, problem } = reading.failure;
      ctx.note({ key: `read:quiz-questions:${problem}`, message: msg('note.quiz-questions.not-read', { problem: problem.replaceAll('-', '_'), status }) });
      return;
    }
    if (reading.skipped > 0) ctx.note({ key: 'skipped:quiz-questions', message: msg('note.route.skipped', { what: 'quizzes', count: reading.skipped }) });
    for (const question of reading.value) {
      if (question.texts.length === 0) continue;
      await ctx.emit({
        place: questionPlace(quiz.place, question.number),
        url: quiz.viewUrl,
        html: { content: question.texts.join('\n'), baseUrl: new URL(quiz.viewUrl), whole: false },
        part: `question:${question.id}`,
      });
    }
  });
}
