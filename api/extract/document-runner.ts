// Hands documents to the document worker one at a time, within limits: a time limit per document,
// a heap limit on the worker, and a watch on the process's memory while a document is read (pdf.js
// keeps decoded streams outside the heap). A document that breaks a limit, or a worker that dies,
// fails only that document: the next one gets a fresh worker (supervised-worker.ts).
import { SupervisedWorker, type WorkerFailure } from '../workers/supervised-worker.ts';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentFacts, type DocumentFailure, type DocumentLimits, type DocumentType } from './document-facts.ts';
import type { DocumentAnswer, DocumentRequest } from './document-worker.ts';

export type DocumentResult = { ok: true; facts: DocumentFacts } | { ok: false; failure: DocumentFailure };

export interface DocumentRunnerOptions {
  limits?: Partial<DocumentLimits>;
  /** The process's resident memory past which a document being read is given up (default 1.5 GiB). */
  rssLimitBytes?: number;
}

/** What a document that got no answer from the worker is reported as. */
function documentFailure(failure: WorkerFailure): DocumentFailure {
  switch (failure.kind) {
    case 'closed':
      return { kind: 'crashed', detail: 'The document reader is closed.' };
    case 'timeout':
      return { kind: 'timeout' };
    case 'heap-limit':
      return { kind: 'too-large', detail: failure.message };
    case 'memory-limit':
      return { kind: 'too-large', detail: 'memory' };
    case 'crashed':
      return { kind: 'crashed', detail: failure.message };
    case 'stopped':
      return { kind: 'crashed', detail: 'The document reader stopped.' };
  }
}

export class DocumentRunner {
  readonly limits: DocumentLimits;
  readonly #worker: SupervisedWorker<DocumentRequest, DocumentAnswer>;

  constructor(options: DocumentRunnerOptions = {}) {
    this.limits = { ...DEFAULT_DOCUMENT_LIMITS, ...options.limits };
    this.#worker = new SupervisedWorker({
      module: new URL('./document-worker.ts', import.meta.url),
      resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: this.limits.heapMb },
      timeoutMs: this.limits.timeoutMs,
      rssLimitBytes: options.rssLimitBytes ?? 1.5 * 1024 * 1024 * 1024,
    });
  }

  /** Reads a document; never rejects: a document that cannot be read comes back with why. */
  async read(type: DocumentType, bytes: Uint8Array): Promise<DocumentResult> {
    // The bytes move to the worker rather than being copied; a view into a shared pool is copied first.
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
      ? bytes
      : new Uint8Array(bytes);
    const result = await this.#worker.run({ type, bytes: own, limits: this.limits }, [own.buffer as ArrayBuffer]);
    if (!result.ok) return { ok: false, failure: documentFailure(result.failure) };
    const { answer } = result;
    return 'facts' in answer ? { ok: true, facts: answer.facts } : { ok: false, failure: answer.failure };
  }

  close(): Promise<void> {
    return this.#worker.close();
  }
}
