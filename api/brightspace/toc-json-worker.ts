// A worker thread that turns one table-of-contents answer into its normalized JSON text (toc-json.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { normalizeTocText } from './toc-json.ts';

parentPort?.postMessage(normalizeTocText(workerData as string));
