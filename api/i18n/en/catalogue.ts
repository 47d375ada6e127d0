// The English catalogue: every message id the server knows, by family. Each family keeps its own
// file so that the messages sit beside the checks and errors that use them.
import { accessibility } from './accessibility.ts';
import { cli } from './cli.ts';
import { courseWide } from './course-wide.ts';
import { documents } from './documents.ts';
import { errors } from './errors.ts';
import { findings } from './findings.ts';
import { fixes } from './fixes.ts';
import { history } from './history.ts';
import { links } from './links.ts';
import { protocol } from './protocol.ts';
import { report } from './report.ts';
import { safeguards } from './safeguards.ts';

export const english = { ...errors, ...findings, ...links, ...documents, ...fixes, ...report, ...cli, ...courseWide, ...accessibility, ...safeguards, ...history, ...protocol } as const satisfies Record<string, string>;
export type MessageId = keyof typeof english;
