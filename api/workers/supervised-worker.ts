// One worker thread, supervised: jobs go to it one at a time from a queue, each within a time limit,
// the thread within a heap limit and, while a job runs, the process within a memory limit. A job that
// breaks a limit, or a thread that dies under it, fails only that job: the thread is ended and the
// next job gets a fresh one. What a failure means to a person is the caller's to say.
import { Worker, type ResourceLimits, type Transferable } from 'node:worker_threads';
import pLimit from 'p-limit';

/** Why a job got no answer. */
export type WorkerFailure =
  /** The worker was closed before the job ran. */
  | { kind: 'closed' }
  /** The job took longer than the time limit. */
  | { kind: 'timeout' }
  /** The thread went past its heap limit (ERR_WORKER_OUT_OF_MEMORY). */
  | { kind: 'heap-limit'; message: string }
  /** The thread threw outside of a job's own handling. */
  | { kind: 'crashed'; message: string }
  /** The thread ended (terminated by close(), or process.exit in the worker). */
  | { kind: 'stopped' }
  /** The process's resident memory went past its limit while the job ran. */
  | { kind: 'memory-limit' };

/** A job's answer, or why there is none: never a rejection. */
export type WorkerResult<Answer> = { ok: true; answer: Answer } | { ok: false; failure: WorkerFailure };

export interface SupervisedWorkerOptions {
  /** The worker's module: it answers each request with one message carrying the request's `id`. */
  module: URL;
  workerData?: unknown;
  /** The thread's heap limits. */
  resourceLimits: ResourceLimits;
  /** Time limit of one job, from handing it to the thread to its answer. */
  timeoutMs: number;
  /** The process's resident memory past which the job under way is given up; no limit when absent. */
  rssLimitBytes?: number;
}

const CLOSED: WorkerResult<never> = { ok: false, failure: { kind: 'closed' } };
/** How often the process's memory is looked at while a job runs. */
const MEMORY_WATCH_MS = 100;

export class SupervisedWorker<Request extends { id: number }, Answer extends { id: number }> {
  readonly #options: SupervisedWorkerOptions;
  // One job at a time; close() empties the queue, whose jobs then fail as closed.
  readonly #queue = pLimit({ concurrency: 1, rejectOnClear: true });
  #worker: Worker | null = null;
  #nextId = 1;
  #closed = false;

  constructor(options: SupervisedWorkerOptions) {
    this.#options = options;
  }

  /** Starts the thread ahead of the first job, when loading its module takes a while. */
  warmUp(): void {
    if (!this.#closed) this.#worker ??= this.#start();
  }

  /** Queues a job; `transfer` lists what moves to the thread instead of being copied. */
  run(request: Omit<Request, 'id'>, transfer: readonly Transferable[] = []): Promise<WorkerResult<Answer>> {
    if (this.#closed) return Promise.resolve(CLOSED);
    // #runOne never rejects: a rejection is the queue's own, for a job cleared by close().
    return this.#queue(() => this.#runOne(request, transfer)).catch(() => CLOSED);
  }

  /** Fails the jobs still waiting, and ends the thread (the job under way fails as stopped). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#queue.clearQueue();
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
  }

  #start(): Worker {
    const worker = new Worker(this.#options.module, { workerData: this.#options.workerData, resourceLimits: this.#options.resourceLimits });
    // An idle thread does not keep the process alive; a thread at work does (ref() below).
    worker.unref();
    return worker;
  }

  #runOne(request: Omit<Request, 'id'>, transfer: readonly Transferable[]): Promise<WorkerResult<Answer>> {
    if (this.#closed) return Promise.resolve(CLOSED);
    const worker = (this.#worker ??= this.#start());
    const id = this.#nextId++;
    const { timeoutMs, rssLimitBytes } = this.#options;
    return new Promise((resolve) => {
      const finish = (result: WorkerResult<Answer>, restart: boolean) => {
        clearTimeout(timer);
        clearInterval(watch);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        worker.unref();
        if (restart && this.#worker === worker) {
          this.#worker = null;
          void worker.terminate();
        }
        resolve(result);
      };
      const onMessage = (answer: Answer) => {
        if (answer.id === id) finish({ ok: true, answer }, false);
      };
      const onError = (error: Error) => {
        const heapLimit = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
        finish({ ok: false, failure: heapLimit ? { kind: 'heap-limit', message: error.message } : { kind: 'crashed', message: error.message } }, true);
      };
      const onExit = () => finish({ ok: false, failure: { kind: 'stopped' } }, true);
      const timer = setTimeout(() => finish({ ok: false, failure: { kind: 'timeout' } }, true), timeoutMs);
      const watch = rssLimitBytes === undefined
        ? undefined
        : setInterval(() => {
          if (process.memoryUsage.rss() > rssLimitBytes) finish({ ok: false, failure: { kind: 'memory-limit' } }, true);
        }, MEMORY_WATCH_MS);
      worker.ref();
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      try {
        worker.postMessage({ ...request, id }, transfer);
      } catch (error) {
        // A request that cannot be sent (nothing the thread can clone) fails alone; the thread is fine.
        finish({ ok: false, failure: { kind: 'crashed', message: error instanceof Error ? error.message : String(error) } }, false);
      }
    });
  }
}
