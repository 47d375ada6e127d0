// The supervised worker: jobs one at a time in order, each failure (time limit, crash, exit, heap
// limit, process memory limit) failing only its own job with a fresh thread for the next, and close()
// failing what waits.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SupervisedWorker, type SupervisedWorkerOptions, type WorkerResult } from '../../../api/workers/supervised-worker.ts';
import type { ToyAnswer, ToyRequest } from './toy-worker.ts';

const opened: SupervisedWorker<ToyRequest, ToyAnswer>[] = [];

// Limits no busy machine reaches unless the test means it to.
function toy(options: Partial<SupervisedWorkerOptions> = {}): SupervisedWorker<ToyRequest, ToyAnswer> {
  const worker = new SupervisedWorker<ToyRequest, ToyAnswer>({
    module: new URL('./toy-worker.ts', import.meta.url),
    resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 64 },
    timeoutMs: 600_000,
    ...options,
  });
  opened.push(worker);
  return worker;
}

function answer(result: WorkerResult<ToyAnswer>): ToyAnswer {
  if (!result.ok) throw new Error(`expected an answer, got ${JSON.stringify(result.failure)}`);
  return result.answer;
}

/** Lets a job taken from the queue reach the thread (the queue starts it a microtask later). */
const underWay = () => new Promise((resolve) => setImmediate(resolve));

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(opened.splice(0).map((worker) => worker.close()));
});

describe('SupervisedWorker', () => {
  it('runs jobs one at a time, in order, on one thread that keeps its data', async () => {
    const worker = toy({ workerData: { language: 'fr' } });
    const results = await Promise.all(['a', 'b', 'c'].map((value) => worker.run({ act: 'echo', value })));
    const answers = results.map(answer);
    expect(answers.map((entry) => entry.value)).toEqual(['a', 'b', 'c']);
    expect(new Set(answers.map((entry) => entry.threadId)).size).toBe(1);
    expect(answers[0]!.workerData).toEqual({ language: 'fr' });
  });

  it.each([
    ['a crash', { act: 'throw' }, {}, { kind: 'crashed', message: 'the toy broke' }],
    ['an exit', { act: 'exit' }, {}, { kind: 'stopped' }],
    ['the heap limit', { act: 'grow' }, { resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 16 } }, { kind: 'heap-limit' }],
  ] as const)('fails only the job that met %s: the next job gets a fresh thread', async (_, request, options, failure) => {
    const worker = toy(options);
    const first = answer(await worker.run({ act: 'echo', value: 'before' }));
    const failed = await worker.run(request);
    expect(failed).toMatchObject({ ok: false, failure });
    const after = answer(await worker.run({ act: 'echo', value: 'after' }));
    expect(after.value).toBe('after');
    expect(after.threadId).not.toBe(first.threadId);
  });

  it('fails only the job that met the time limit: the thread is ended, the next job gets a fresh one', async () => {
    // The clock is the test's: a thread slow to start on a busy machine must not meet the limit.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const worker = toy({ timeoutMs: 1_000 });
    const first = answer(await worker.run({ act: 'echo', value: 'before' }));
    let settled = false;
    const hung = worker.run({ act: 'hang' }).finally(() => (settled = true));
    await underWay();
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await hung).toEqual({ ok: false, failure: { kind: 'timeout' } });
    const after = answer(await worker.run({ act: 'echo', value: 'after' }));
    expect(after.value).toBe('after');
    expect(after.threadId).not.toBe(first.threadId);
  });

  it('gives up the job under way when the process grows past its memory limit', async () => {
    const worker = toy({ rssLimitBytes: 1 });
    expect(await worker.run({ act: 'hang' })).toEqual({ ok: false, failure: { kind: 'memory-limit' } });
  });

  it('on close, fails the jobs waiting as closed and the job under way as stopped, and refuses new ones', async () => {
    const worker = toy();
    answer(await worker.run({ act: 'echo' })); // the thread is up, so the next job is under way at once
    const running = worker.run({ act: 'hang' });
    await underWay();
    const waiting = [worker.run({ act: 'echo', value: 'x' }), worker.run({ act: 'echo', value: 'y' })];
    await worker.close();
    expect(await running).toEqual({ ok: false, failure: { kind: 'stopped' } });
    expect(await Promise.all(waiting)).toEqual([{ ok: false, failure: { kind: 'closed' } }, { ok: false, failure: { kind: 'closed' } }]);
    expect(await worker.run({ act: 'echo' })).toEqual({ ok: false, failure: { kind: 'closed' } });
  });

  it('fails a request the thread cannot be sent, and goes on', async () => {
    const worker = toy();
    const unsendable = await worker.run({ act: 'echo', value: (() => undefined) as unknown as string });
    expect(unsendable).toMatchObject({ ok: false, failure: { kind: 'crashed' } });
    expect(answer(await worker.run({ act: 'echo', value: 'fine' })).value).toBe('fine');
  });
});
