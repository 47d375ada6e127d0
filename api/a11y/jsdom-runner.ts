// The fallback accessibility runner when no browser is installed: axe-core in jsdom, in a worker
// thread (the link checks are not held up), one item at a time. jsdom has no layout, canvas or
// painting, so the rules that need them are not run (axe-rules.ts) and the report says so. A topic
// that takes too long, or a worker that dies, fails only that topic: the next gets a fresh worker.
import { Worker } from 'node:worker_threads';
import { AppError } from '../errors.ts';
import type { Language } from '../i18n/languages.ts';
import { msg } from '../i18n/messages.ts';
import type { A11yItem, AccessibilityRunner } from './a11y-runner.ts';
import type { AxeOutcome } from './axe-rules.ts';
import type { AxeAnswer, AxeRequest, AxeWorkerData } from './axe-worker.ts';

const closedError = () => new AppError('internal', msg('reason.a11y.closed'));

interface Job {
  item: A11yItem;
  resolve: (outcome: AxeOutcome) => void;
  reject: (error: Error) => void;
}

export interface JsdomRunnerOptions {
  /** Time limit of one item (default 30 s). */
  timeoutMs?: number;
  language?: Language;
}

export class JsdomRunner implements AccessibilityRunner {
  readonly mode = 'jsdom' as const;
  readonly #timeoutMs: number;
  readonly #workerData: AxeWorkerData;
  #worker: Worker | null = null;
  #queue: Job[] = [];
  #busy = false;
  #nextId = 1;
  #closed = false;

  constructor(options: JsdomRunnerOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#workerData = { language: options.language };
  }

  /** Starts the worker ahead of the first topic: loading jsdom and axe takes most of a second. */
  warmUp(): void {
    if (!this.#closed) this.#worker ??= this.#start();
  }

  run(item: A11yItem): Promise<AxeOutcome> {
    if (this.#closed) return Promise.reject(closedError());
    return new Promise((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
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
      workerData: this.#workerData,
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
      else finish(() => job.resolve(answer.outcome), false);
    };
    const onError = (error: Error) => finish(() => job.reject(new AppError('internal', msg('reason.a11y.error', { problem: error.message }))), true);
    const onExit = () => finish(() => job.reject(new AppError('internal', msg('reason.a11y.stopped'))), true);
    const timer = setTimeout(
      () => finish(() => job.reject(new AppError('internal', msg('reason.a11y.timeout', { seconds: Math.round(this.#timeoutMs / 1000) }))), true),
      this.#timeoutMs,
    );
    worker.ref();
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    const request: AxeRequest = { id, html: job.item.html, whole: job.item.whole, title: job.item.title ?? '' };
    worker.postMessage(request);
  }
}
