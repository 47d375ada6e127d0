// A worker for the supervised worker's tests: answers, hangs, throws, exits or outgrows its heap, as asked.
import { parentPort, threadId, workerData } from 'node:worker_threads';

export interface ToyRequest {
  id: number;
  act: 'echo' | 'hang' | 'throw' | 'exit' | 'grow';
  value?: string;
}
export interface ToyAnswer {
  id: number;
  value: string;
  /** Which thread answered: a new one after a failure. */
  threadId: number;
  workerData: unknown;
}

const kept: unknown[] = [];

parentPort?.on('message', (request: ToyRequest) => {
  switch (request.act) {
    case 'echo':
      parentPort?.postMessage({ id: request.id, value: request.value ?? '', threadId, workerData } satisfies ToyAnswer);
      return;
    case 'hang':
      return;
    case 'throw':
      throw new Error('the toy broke');
    case 'exit':
      process.exit(0);
      return;
    case 'grow':
      for (;;) kept.push(new Array(100_000).fill(kept.length));
  }
});
