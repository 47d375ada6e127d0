// What a reader hands back: the parsed objects (entries it could not make sense of counted, not
// guessed at), or why the route gave nothing: not offered by this site, not allowed to this
// account, not readable, or failed. A reader never throws for an HTTP answer; only a network
// failure or a session that cannot be renewed ends the run.
import type { ApiAnswer, BrightspaceSession } from './session.ts';
import { readList } from './paging.ts';

export type ReadProblem = Extract<ApiAnswer, { ok: false }>['problem'];

export interface ReadFailure {
  status: number;
  problem: ReadProblem;
}

export type Reading<T> = { ok: true; value: T; skipped: number } | { ok: false; failure: ReadFailure };

/** Every entry of a list route, each parsed; null from the parser skips (and counts) an entry. */
export async function readListOf<T>(session: BrightspaceSession, url: URL, parse: (raw: unknown) => T | null): Promise<Reading<T[]>> {
  const answer = await readList(session, url);
  if (!answer.ok) return { ok: false, failure: { status: answer.status, problem: answer.problem } };
  const value: T[] = [];
  let skipped = 0;
  for (const raw of answer.items) {
    const parsed = parse(raw);
    if (parsed === null) skipped++;
    else value.push(parsed);
  }
  return { ok: true, value, skipped };
}

/** One object route, parsed; an answer the parser cannot read is `unreadable`. */
export async function readOneOf<T>(session: BrightspaceSession, url: URL, parse: (raw: unknown) => T | null): Promise<Reading<T>> {
  const answer = await session.getJson(url);
  if (!answer.ok) return { ok: false, failure: { status: answer.status, problem: answer.problem } };
  const value = parse(answer.body);
  if (value === null) return { ok: false, failure: { status: 200, problem: 'unreadable' } };
  return { ok: true, value, skipped: 0 };
}
