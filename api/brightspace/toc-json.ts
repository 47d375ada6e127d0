// The table of contents as text in, text out: parsed, made consistent (normalizeToc) and written
// again. POST /api/toc answers with this text as it is, so a large course's answer (up to 20 MB) is
// parsed and written in a worker thread, never on the thread that serves every other request.
import { Worker } from 'node:worker_threads';
import { normalizeToc } from './toc.ts';

export type TocJson = { ok: true; json: string } | { ok: false; problem: 'unreadable' | 'not-a-toc' };

/** Answers smaller than this are handled in place: a worker costs more than their parse. */
export const OFF_THREAD_BYTES = 512 * 1024;

export function normalizeTocText(text: string): TocJson {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
  const toc = normalizeToc(body);
  return toc === null ? { ok: false, problem: 'not-a-toc' } : { ok: true, json: JSON.stringify(toc) };
}

/** normalizeTocText in a worker thread of its own for a large answer; stopped when `signal` aborts. */
export function normalizeTocTextOffThread(text: string, signal?: AbortSignal): Promise<TocJson> {
  if (text.length < OFF_THREAD_BYTES) return Promise.resolve(normalizeTocText(text));
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./toc-json-worker.ts', import.meta.url), { workerData: text, name: 'ctpo-toc-json' });
    const onAbort = (): void => {
      void worker.terminate();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (result: TocJson) => {
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
    });
    worker.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
  });
}
