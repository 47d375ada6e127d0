// Hands topics to the axe worker one at a time. A topic that takes too long, or a worker that
// dies, fails only that topic: the next one gets a fresh worker.
import { Worker } from 'node:worker_threads';
import { AppError } from '../errors.ts';
import { msg } from '../i18n/messages.ts';
import type { AxeViolation } from './axe-rules.ts';
import type { AxeAnswer } from './axe-worker.ts';

/** The accessibility checks of one item did not finish in time. */
export class AxeTimeout extends AppError {}

const closedError = () => new AppError('internal', msg('reason.a11y.closed'));

interface Job {
  html: string;
  resolve: (violations: AxeViolation[]) => void;
  reject: (error: Error) => void;
}

export class AxeRunner {
  readonly #timeoutMs: number;
  #worker: Worker | null = null;
  #queue: Job[] = [];
  #busy = false;
  #nextId = 1;
  #closed = false;

  constructor(options: { timeoutMs?: number } = {}) {
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** Starts the worker ahead of the first topic: loading jsdom and axe takes most of a second. */
  warmUp(): void {
    if (!this.#closed) this.#worker ??= this.#start();
  }

  run(html: string): Promise<AxeViolation[]> {
    if (this.#closed) return Promise.reject(closedError());
    return new Promise((resolve, reject) => {
      this.#queue.push({ html, resolve, reject });
      this.#pump();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(closedError());
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
  }

  #start(): Worker {
    // A small young generation keeps jsdom's allocation churn from growing the heap (and RSS).
    const worker = new Worker(new URL('./axe-worker.ts', import.meta.url), {
      resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 384 },
    });
    worker.unref();
    return worker;
  }

  #pump(): void {
    if (this.#busy || this.#closed) return;
    const job = this.#queue.shift();
    if (!job) return;
    this.#busy = true;
    const worker = (this.#worker ??= this.#start());
    const id = this.#nextId++;

    const finish = (outcome: () => void, restart: boolean) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      worker.unref();
      if (restart && this.#worker === worker) {
        this.#worker = null;
        void worker.terminate();
      }
      this.#busy = false;
      outcome();
      this.#pump();
    };
    const onMessage = (answer: AxeAnswer) => {
      if (answer.id !== id) return;
      if ('error' in answer) finish(() => job.reject(new AppError('internal', msg('reason.a11y.error', { problem: answer.error }))), false);
      else finish(() => job.resolve(answer.violations), false);
    };
    const onError = (error: Error) => finish(() => job.reject(new AppError('internal', msg('reason.a11y.error', { problem: error.message }))), true);
    const onExit = () => finish(() => job.reject(new AppError('internal', msg('reason.a11y.stopped'))), true);
    const timer = setTimeout(
      () => finish(() => job.reject(new AxeTimeout('internal', msg('reason.a11y.timeout', { seconds: Math.round(this.#timeoutMs / 1000) }))), true),
      this.#timeoutMs,
    );
    worker.ref();
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ id, html: job.html });
  }
}
