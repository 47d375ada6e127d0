import { describe, expect, it } from 'vitest';
import { parseQuizQuestion } from '../../../api/brightspace/quiz-questions.ts';

describe('parseQuizQuestion', () => {
  it('reads the question, every answer choice and its feedback, the hint and the feedback of a multiple-choice question', () => {
    const question = parseQuizQuestion({
      QuestionId: 7, QuestionTypeId: 1, Name: 'Q', QuestionText: { Text: 'Pick one', Html: '<p>Pick one</p>' },
      Hint: null, Feedback: { Text: '', Html: '' },
      QuestionInfo: { Answers: [{ PartId: 1, Answer: { Text: 'A', Html: '<p>A</p>' }, AnswerFeedback: { Text: 'Yes', Html: '<p>Yes</p>' }, Weight: 100 }, { PartId: 2, Answer: { Text: 'B', Html: '' }, AnswerFeedback: { Text: '', Html: '' }, Weight: 0 }], Randomize: false, Enumeration: 4 },
    }, 3);
    expect(question).toEqual({ id: 7, number: 3, name: 'Q', texts: ['<p>Pick one</p>', '<p>A</p>', '<p>Yes</p>', 'B'] });
  });

  it("reads a true/false question's feedback, and only the question text of a type it does not know", () => {
    expect(parseQuizQuestion({ QuestionId: 8, QuestionTypeId: 2, QuestionText: { Html: '<p>True?</p>' }, QuestionInfo: { TruePartId: 1, TrueWeight: 100, TrueFeedback: { Html: '<p>Right</p>' }, FalsePartId: 2, FalseWeight: 0, FalseFeedback: { Html: '<p>TBD</p>' } } }, 1)?.texts)
      .toEqual(['<p>True?</p>', '<p>Right</p>', '<p>TBD</p>']);
    expect(parseQuizQuestion({ QuestionId: 9, QuestionTypeId: 14, QuestionText: { Html: '<p>Hotspot</p>' }, QuestionInfo: { Image: 'x.png' }, Hint: { Html: '<p>Look left</p>' } }, 2)?.texts).toEqual(['<p>Hotspot</p>', '<p>Look left</p>']);
  });

  it('skips an entry without a question id', () => {
    expect(parseQuizQuestion({ QuestionText: { Html: '<p>x</p>' } }, 1)).toBeNull();
    expect(parseQuizQuestion('nonsense', 1)).toBeNull();
  });
});
