// The fallback accessibility runner when no browser is installed: axe-core in jsdom, in a worker
// thread (the link checks are not held up), one item at a time. jsdom has no layout, canvas or
// painting, so the rules that need them are not run (axe-rules.ts) and the report says so. A topic
// that takes too long, or a worker that dies, fails only that topic: the next gets a fresh worker
// (supervised-worker.ts).
import { AppError } from '../errors.ts';
import type { Language } from '../i18n/languages.ts';
import { msg } from '../i18n/messages.ts';
import { SupervisedWorker, type WorkerFailure } from '../workers/supervised-worker.ts';
import type { A11yItem, AccessibilityRunner } from './a11y-runner.ts';
import type { AxeOutcome } from './axe-rules.ts';
import type { AxeAnswer, AxeRequest, AxeWorkerData } from './axe-worker.ts';

export interface JsdomRunnerOptions {
  /** Time limit of one item (default 30 s). */
  timeoutMs?: number;
  language?: Language;
}

export class JsdomRunner implements AccessibilityRunner {
  readonly mode = 'jsdom' as const;
  readonly #timeoutMs: number;
  readonly #worker: SupervisedWorker<AxeRequest, AxeAnswer>;

  constructor(options: JsdomRunnerOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#worker = new SupervisedWorker({
      module: new URL('./axe-worker.ts', import.meta.url),
      workerData: { language: options.language } satisfies AxeWorkerData,
      // A small young generation keeps jsdom's allocation churn from growing the heap (and RSS).
      resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 384 },
      timeoutMs: this.#timeoutMs,
    });
  }

  /** Starts the worker ahead of the first topic: loading jsdom and axe takes most of a second. */
  warmUp(): void {
    this.#worker.warmUp();
  }

  async run(item: A11yItem): Promise<AxeOutcome> {
    const result = await this.#worker.run({ html: item.html, whole: item.whole, title: item.title ?? '' });
    if (!result.ok) throw this.#error(result.failure);
    if ('error' in result.answer) throw new AppError('internal', msg('reason.a11y.error', { problem: result.answer.error }));
    return result.answer.outcome;
  }

  close(): Promise<void> {
    return this.#worker.close();
  }

  #error(failure: WorkerFailure): AppError {
    switch (failure.kind) {
      case 'closed':
        return new AppError('internal', msg('reason.a11y.closed'));
      case 'timeout':
        return new AppError('internal', msg('reason.a11y.timeout', { seconds: Math.round(this.#timeoutMs / 1000) }));
      case 'heap-limit':
      case 'crashed':
        return new AppError('internal', msg('reason.a11y.error', { problem: failure.message }));
      case 'stopped':
      case 'memory-limit':
        return new AppError('internal', msg('reason.a11y.stopped'));
    }
  }
}
