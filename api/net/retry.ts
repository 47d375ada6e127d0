// Asking again, politely: how long a server's Retry-After says to wait, how long to wait when it says
// nothing (exponential backoff with jitter), and a wait that ends early when the run is stopped. The
// link prober and the Brightspace client both retry through these, so they read a server alike.
import { setTimeout as delay } from 'node:timers/promises';

const DELAY_SECONDS = /^\d+$/;
const DAY_NAME = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const DAY_NAME_LONG = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
// RFC 9110 5.6.7: the preferred IMF-fixdate, and the two obsolete forms a recipient must still accept.
const IMF_FIXDATE = new RegExp(`^${DAY_NAME}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^${DAY_NAME_LONG}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY_NAME} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

function utc(year: number, month: string, day: string, hour: string, minute: string, second: string): number | null {
  const monthIndex = MONTHS.indexOf(month);
  const at = new Date(Date.UTC(year, monthIndex, Number(day), Number(hour), Number(minute), Number(second)));
  // Date.UTC rolls 31 Feb over into March; an HTTP-date that names no real moment is not one.
  const real = at.getUTCFullYear() === year && at.getUTCMonth() === monthIndex && at.getUTCDate() === Number(day)
    && Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 60;
  return real ? at.getTime() : null;
}

/** The moment an HTTP-date names (RFC 9110 5.6.7: all three forms, case-sensitive), or null. */
export function parseHttpDate(value: string, now = Date.now()): number | null {
  let match = IMF_FIXDATE.exec(value);
  if (match) return utc(Number(match[3]), match[2]!, match[1]!, match[4]!, match[5]!, match[6]!);
  match = ASCTIME_DATE.exec(value);
  if (match) return utc(Number(match[6]), match[1]!, match[2]!.trim(), match[3]!, match[4]!, match[5]!);
  match = RFC850_DATE.exec(value);
  if (match) {
    // A two-digit year more than 50 years ahead is the latest past year with those digits.
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(match[3]);
    if (year > thisYear + 50) year -= 100;
    return utc(year, match[2]!, match[1]!, match[4]!, match[5]!, match[6]!);
  }
  return null;
}

/**
 * Milliseconds to wait from a Retry-After value, or null when it says nothing usable. RFC 9110
 * 10.2.3: `Retry-After = HTTP-date / delay-seconds` and `delay-seconds = 1*DIGIT`, so "1.5", "-1"
 * and "soon" say nothing; a date already past means now. The spaces or tabs around a field's value
 * are not part of it (RFC 9110 5.5). No upper bound: each caller decides what it waits for.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined) return null;
  const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, '');
  if (DELAY_SECONDS.test(trimmed)) return Number(trimmed) * 1000;
  const at = parseHttpDate(trimmed, now);
  return at === null ? null : Math.max(0, at - now);
}

/**
 * The wait before retry number `attempt` (1, 2, ...): `baseMs` doubled for each retry before it,
 * plus up to `baseMs` at random, so that clients refused together do not come back together.
 */
export function backoffMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  return baseMs * 2 ** (attempt - 1) + random() * baseMs;
}

export interface SleepOptions {
  /** Ends the wait early, rejecting with the signal's reason (as the HTTP client does). */
  signal?: AbortSignal;
  /** False: the wait does not keep the process alive. */
  ref?: boolean;
}

/** Waits `ms` milliseconds; stopped early by the signal. */
export async function sleep(ms: number, options: SleepOptions = {}): Promise<void> {
  const { signal, ref = true } = options;
  try {
    await delay(ms, undefined, { signal, ref });
  } catch (error) {
    throw signal?.aborted ? signal.reason : error;
  }
}
