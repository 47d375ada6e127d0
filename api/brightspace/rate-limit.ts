// Pacing for Brightspace's API rate limit. D2L documents three headers on every API answer
// (X-Rate-Limit-Remaining: credits left in the current window, X-Rate-Limit-Reset: seconds until
// the window refills, X-Request-Cost: credits this call cost) and Retry-After on a 429. The pacer
// lets calls through at full speed while the bucket is more than half full, spreads the rest
// evenly over what is left of the window, and holds every call until the refill when too few
// credits are left for the calls already under way: it slows down before the site refuses.
// Sites that send no such headers (rate limiting off, or a session not counted) are not paced.
import { headerValue, type IncomingHttpHeaders } from '../net/guarded-http.ts';
import { retryAfterMs, sleep } from '../net/retry.ts';

/** Calls kept in hand below which the pacer waits for the window to refill. */
const RESERVE_CALLS = 2;
/** Waiting on a 429 without Retry-After. */
const DEFAULT_RETRY_AFTER_MS = 2_000;
/** The longest wait taken from the site (a Retry-After, a window's reset). */
const MAX_WAIT_MS = 120_000;
/** A refill is taken as a new window when its reset time moves by more than this. */
const SAME_WINDOW_MS = 1_000;
/** How often a call held for a free slot looks again. */
const POLL_MS = 25;

export interface RateLimitState {
  /** Credits left in the current window, as last reported; null when the site reports none. */
  remaining: number | null;
  /** When the current window refills (epoch ms). */
  resetAt: number;
  /** Credits per call, as last reported. */
  cost: number;
}

/** How long the site's Retry-After asks the client to wait, within MAX_WAIT_MS; null when it says nothing. */
export function siteRetryAfterMs(headers: IncomingHttpHeaders, now = Date.now()): number | null {
  const wait = retryAfterMs(headerValue(headers, 'retry-after'), now);
  return wait === null ? null : Math.min(MAX_WAIT_MS, wait);
}

function numberHeader(headers: IncomingHttpHeaders, name: string): number | null {
  const value = headerValue(headers, name)?.trim();
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value)) return null;
  return Number(value);
}

export class RateLimitPacer {
  #remaining: number | null = null;
  #resetAt = 0;
  #cost = 10;
  /** The fullest the bucket has been seen: its size, as far as the client can tell. */
  #bucket = 0;
  #inFlight = 0;
  #blockedUntil = 0;
  #nextSlot = 0;
  /** Calls that waited for the site's limit, for the tests and the report. */
  waits = 0;

  get state(): RateLimitState {
    return { remaining: this.#remaining, resetAt: this.#resetAt, cost: this.#cost };
  }

  /** Waits until a call may go; the returned function ends the call (call it once, always). */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    let waited = false;
    for (;;) {
      signal?.throwIfAborted();
      const wait = this.#waitFor(Date.now());
      if (wait <= 0) break;
      waited = true;
      await sleep(wait, { signal });
    }
    if (waited) this.waits++;
    this.#inFlight++;
    let released = false;
    return () => {
      if (!released) this.#inFlight--;
      released = true;
    };
  }

  /** Takes what an answer says about the limit. */
  observe(status: number, headers: IncomingHttpHeaders, now = Date.now()): void {
    if (status === 429) {
      const wait = siteRetryAfterMs(headers, now) ?? DEFAULT_RETRY_AFTER_MS;
      this.#blockedUntil = Math.max(this.#blockedUntil, now + wait);
      this.#remaining = 0;
      this.#resetAt = Math.max(this.#resetAt, now + wait);
      return;
    }
    const remaining = numberHeader(headers, 'x-rate-limit-remaining');
    if (remaining === null) return;
    const reset = numberHeader(headers, 'x-rate-limit-reset');
    const cost = numberHeader(headers, 'x-request-cost');
    if (cost !== null && cost > 0) this.#cost = cost;
    const resetAt = now + Math.min(MAX_WAIT_MS, (reset ?? 60) * 1000);
    // Answers arrive out of order: within one window the lowest count is the true one.
    const sameWindow = this.#remaining !== null && this.#resetAt > now && Math.abs(resetAt - this.#resetAt) < SAME_WINDOW_MS;
    this.#remaining = sameWindow ? Math.min(this.#remaining!, remaining) : remaining;
    this.#resetAt = sameWindow ? Math.min(this.#resetAt, resetAt) : resetAt;
    this.#bucket = Math.max(this.#bucket, remaining + this.#cost);
  }

  /** How long the next call must wait, in ms; 0 when it may go now (and its slot is taken). */
  #waitFor(now: number): number {
    if (this.#blockedUntil > now) return this.#blockedUntil - now;
    if (this.#remaining !== null && this.#resetAt <= now) {
      // The window has refilled; the next answer tells how full.
      this.#remaining = null;
      this.#nextSlot = 0;
    }
    if (this.#remaining === null) {
      // Until an answer says how full the new window is, no more calls than the bucket holds.
      const bucketCalls = Math.floor(this.#bucket / this.#cost) - RESERVE_CALLS;
      return this.#bucket > 0 && this.#inFlight >= Math.max(1, bucketCalls) ? POLL_MS : 0;
    }
    const calls = Math.floor(this.#remaining / this.#cost) - this.#inFlight;
    if (calls <= RESERVE_CALLS) return Math.min(MAX_WAIT_MS, this.#resetAt - now + 50);
    if (this.#remaining * 2 >= this.#bucket) return 0;
    const spacing = (this.#resetAt - now) / (calls - RESERVE_CALLS);
    const slot = Math.max(now, this.#nextSlot);
    if (slot > now) return slot - now;
    this.#nextSlot = now + spacing;
    return 0;
  }
}
