// Reads documents inside a worker thread (document-runner.ts starts it with a heap limit and ends
// it when a document takes too long): pdf.js and the zip and XML readers run here, off the thread
// that checks links, and a hostile file can take down only this thread.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { DocumentReadError, type DocumentFacts, type DocumentFailure, type DocumentLimits, type DocumentType } from './document-facts.ts';
import { readDocx, readPptx } from './office-reader.ts';
import { readPdf } from './pdf-reader.ts';

// Linux keeps a nice value per thread (setpriority(2)), so this lowers only the reading thread: when
// the cores are busy, the link checks on the main thread come first. Elsewhere it would lower the
// whole process, so it is left alone there.
if (process.platform === 'linux') {
  try {
    setPriority(0, 10);
  } catch {
    // Not allowed here: documents are read at the usual priority.
  }
}

export interface DocumentRequest {
  id: number;
  type: DocumentType;
  bytes: Uint8Array;
  limits: DocumentLimits;
}
export type DocumentAnswer = { id: number; facts: DocumentFacts } | { id: number; failure: DocumentFailure };

async function read(request: DocumentRequest): Promise<DocumentFacts> {
  const bytes = Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
  switch (request.type) {
    case 'pdf':
      return readPdf(request.bytes, request.limits);
    case 'docx':
      return readDocx(bytes, request.limits);
    case 'pptx':
      return readPptx(bytes, request.limits);
  }
}

parentPort?.on('message', (request: DocumentRequest) => {
  read(request).then(
    (facts) => parentPort?.postMessage({ id: request.id, facts } satisfies DocumentAnswer),
    (error: unknown) => {
      const failure: DocumentFailure = error instanceof DocumentReadError
        ? { kind: error.kind, detail: error.message }
        : { kind: 'malformed', detail: error instanceof Error ? error.message : String(error) };
      parentPort?.postMessage({ id: request.id, failure } satisfies DocumentAnswer);
    },
  );
});
