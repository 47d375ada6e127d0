// The English catalogue: every message id the server knows, by family. Each family keeps its own
// file so that the messages sit beside the checks and errors that use them.
import { errors } from './errors.ts';
import { findings } from './findings.ts';
import { history } from './history.ts';
import { report } from './report.ts';

export const english = { ...errors, ...findings, ...report, ...history } as const satisfies Record<string, string>;
export type MessageId = keyof typeof english;
