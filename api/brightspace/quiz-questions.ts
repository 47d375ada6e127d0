// A quiz's questions (quizzes/{quizId}/questions/, an ObjectListPage of QuestionData): the texts a
// student reads in each, as HTML: the question, its answer choices and the feedback and hint shown
// after. Which fields are rich text depends on the question type; an unknown type gives its
// question text only, never an error.
import type { BrightspaceSession } from './session.ts';
import { readListOf, type Reading } from './reading.ts';
import { idField, isRecord, richTextHtml, textField } from './valence-fields.ts';

export interface QuizQuestion {
  id: number;
  /** Its number in the quiz, from 1, in the order the site lists the questions. */
  number: number;
  name: string;
  /** The question, its answer choices, hint and feedback, each a piece of HTML (empty ones left out). */
  texts: string[];
}

// QuestionInfo's rich-text fields (multiple choice, multi-select: Answers[].Answer and
// AnswerFeedback; true/false: TrueFeedback and FalseFeedback).
const ANSWER_FIELDS = ['Answer', 'AnswerFeedback'] as const;
const INFO_FIELDS = ['TrueFeedback', 'FalseFeedback'] as const;

function infoTexts(info: unknown): string[] {
  if (!isRecord(info)) return [];
  const texts: string[] = [];
  if (Array.isArray(info.Answers)) {
    for (const answer of info.Answers) if (isRecord(answer)) for (const field of ANSWER_FIELDS) texts.push(richTextHtml(answer[field]));
  }
  for (const field of INFO_FIELDS) texts.push(richTextHtml(info[field]));
  return texts;
}

/** One question; `number` is its position among the questions read. */
export function parseQuizQuestion(raw: unknown, number: number): QuizQuestion | null {
  if (!isRecord(raw)) return null;
  const id = idField(raw.QuestionId);
  if (id === null) return null;
  const texts = [richTextHtml(raw.QuestionText), ...infoTexts(raw.QuestionInfo), richTextHtml(raw.Hint), richTextHtml(raw.Feedback)].filter((html) => html.trim() !== '');
  return { id, number, name: textField(raw.Name) ?? '', texts };
}

export async function readQuizQuestions(session: BrightspaceSession, orgUnitId: number, quizId: number): Promise<Reading<QuizQuestion[]>> {
  let position = 0;
  return readListOf(session, session.leUrl(orgUnitId, `quizzes/${quizId}/questions/`), (raw) => parseQuizQuestion(raw, ++position));
}

