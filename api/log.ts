// The log: a line-writing function every part is handed, and how a failure is written to it without
// the Brightspace password, and without any trace of where it was taken out. Text is never redacted piece by piece (a one-letter password would then
// show through as "Brights[redacted]ace"): CTPO's own errors carry messages built from the catalogue,
// which never take the password as a value, so they are logged as they are; any other error's
// message is logged only when the password is nowhere in it; stack frames name code, never data.
import { isMessage } from './i18n/messages.ts';

/** Where a part writes its log lines (the console locally, CloudWatch on AWS). */
export type Log = (line: string) => void;

/** The error's name, its message when it is safe to keep, and its stack frames. */
export function failureDetail(error: unknown, secrets: readonly string[]): string {
  if (!(error instanceof Error)) return `a ${typeof error} was thrown`;
  // CTPO's own errors (AppError, NetworkFailure) carry their catalogue message as `text`.
  const ours = isMessage((error as { text?: unknown }).text);
  const keepMessage = ours || !secrets.some((secret) => secret !== '' && error.message.includes(secret));
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
  const head = keepMessage ? `${error.name}: ${error.message}` : `${error.name} (its message is not logged)`;
  return frames === '' ? head : `${head}\n${frames}`;
}
