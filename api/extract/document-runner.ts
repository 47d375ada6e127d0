// Hands documents to the document worker one at a time, within limits: a time limit per document,
// a heap limit on the worker, and a watch on the process's memory while a document is read (pdf.js
// keeps decoded streams outside the heap). A document that breaks a limit, or a worker that dies,
// fails only that document: the next one gets a fresh worker.
import { Worker } from 'node:worker_threads';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentFacts, type DocumentFailure, type DocumentLimits, type DocumentType } from './document-facts.ts';
import type { DocumentAnswer, DocumentRequest } from './document-worker.ts';

export type DocumentResult = { ok: true; facts: DocumentFacts } | { ok: false; failure: DocumentFailure };

export interface DocumentRunnerOptions {
  limits?: Partial<DocumentLimits>;
  /** The process's resident memory past which a document being read is given up (default 1.5 GiB). */
  rssLimitBytes?: number;
}

interface Job {
  type: DocumentType;
  bytes: Uint8Array;
  resolve: (result: DocumentResult) => void;
}

const MEMORY_WATCH_MS = 100;

export class DocumentRunner {
  readonly limits: DocumentLimits;
  readonly #rssLimit: number;
  #worker: Worker | null = null;
  #queue: Job[] = [];
  #busy = false;
  #nextId = 1;
  #closed = false;

  constructor(options: DocumentRunnerOptions = {}) {
    this.limits = { ...DEFAULT_DOCUMENT_LIMITS, ...options.limits };
    this.#rssLimit = options.rssLimitBytes ?? 1.5 * 1024 * 1024 * 1024;
  }

  /** Reads a document; never rejects: a document that cannot be read comes back with why. */
  read(type: DocumentType, bytes: Uint8Array): Promise<DocumentResult> {
    if (this.#closed) return Promise.resolve({ ok: false, failure: { kind: 'crashed', detail: 'The document reader is closed.' } });
    return new Promise((resolve) => {
      this.#queue.push({ type, bytes, resolve });
      this.#pump();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.resolve({ ok: false, failure: { kind: 'crashed', detail: 'The document reader is closed.' } });
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
  }

  #start(): Worker {
    const worker = new Worker(new URL('./document-worker.ts', import.meta.url), {
      resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: this.limits.heapMb },
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

    const finish = (result: DocumentResult, restart: boolean) => {
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
      this.#busy = false;
      job.resolve(result);
      this.#pump();
    };
    const onMessage = (answer: DocumentAnswer) => {
      if (answer.id !== id) return;
      finish('facts' in answer ? { ok: true, facts: answer.facts } : { ok: false, failure: answer.failure }, false);
    };
    // A worker past its heap limit ends with ERR_WORKER_OUT_OF_MEMORY: the document is too big to read.
    const onError = (error: Error) => {
      const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish({ ok: false, failure: { kind: outOfMemory ? 'too-large' : 'crashed', detail: error.message } }, true);
    };
    const onExit = () => finish({ ok: false, failure: { kind: 'crashed', detail: 'The document reader stopped.' } }, true);
    const timer = setTimeout(() => finish({ ok: false, failure: { kind: 'timeout' } }, true), this.limits.timeoutMs);
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() > this.#rssLimit) finish({ ok: false, failure: { kind: 'too-large', detail: 'memory' } }, true);
    }, MEMORY_WATCH_MS);
    worker.ref();
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    // The bytes move to the worker rather than being copied; a view into a shared pool is copied first.
    const own = job.bytes.byteOffset === 0 && job.bytes.byteLength === job.bytes.buffer.byteLength && job.bytes.buffer instanceof ArrayBuffer
      ? job.bytes
      : new Uint8Array(job.bytes);
    worker.postMessage({ id, type: job.type, bytes: own, limits: this.limits } satisfies DocumentRequest, [own.buffer as ArrayBuffer]);
  }
}
