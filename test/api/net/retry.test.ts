// The one Retry-After parser (RFC 9110 10.2.3: delay-seconds or an HTTP-date, nothing else), the
// backoff and the abortable wait that the link prober and the Brightspace client share.
import { describe, expect, it } from 'vitest';
import { backoffMs, parseHttpDate, retryAfterMs, sleep } from '../../../api/net/retry.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('retryAfterMs', () => {
  it('reads delay-seconds: digits only', () => {
    expect(retryAfterMs('3', NOW)).toBe(3_000);
    expect(retryAfterMs('0', NOW)).toBe(0);
    expect(retryAfterMs('007', NOW)).toBe(7_000);
    expect(retryAfterMs('86400', NOW)).toBe(86_400_000); // no cap here: each caller has its own
  });

  it('takes the spaces and tabs around a field value as no part of it', () => {
    expect(retryAfterMs(' 3 ', NOW)).toBe(3_000);
    expect(retryAfterMs('\t3', NOW)).toBe(3_000);
    expect(retryAfterMs(' Sun, 01 Mar 2026 12:00:03 GMT ', NOW)).toBe(3_000);
  });

  it('reads nothing from what is not 1*DIGIT: fractions, signs, exponents, inner spaces', () => {
    for (const value of ['1.5', '-1', '+1', '1e3', '0x10', '1 000', '3s', '', ' ', '\n3']) {
      expect(retryAfterMs(value, NOW), JSON.stringify(value)).toBeNull();
    }
  });

  it('reads an HTTP-date as the time until it, and a date already past as now', () => {
    expect(retryAfterMs('Sun, 01 Mar 2026 12:00:03 GMT', NOW)).toBe(3_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(retryAfterMs('Sat, 28 Feb 2026 12:00:00 GMT', NOW)).toBe(0);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:00 GMT', NOW)).toBe(0);
  });

  it('reads nothing from garbage or a date in any other form', () => {
    for (const value of ['soon', 'tomorrow', '2026.', '2026-03-01T12:00:03Z', 'Sun, 01 Mar 2026 12:00:03 +0000', 'sun, 01 mar 2026 12:00:03 gmt', 'Sun, 31 Feb 2026 12:00:03 GMT', 'Sun, 01 Mar 2026 24:00:00 GMT']) {
      expect(retryAfterMs(value, NOW), value).toBeNull();
    }
    expect(retryAfterMs(undefined, NOW)).toBeNull();
  });
});

describe('parseHttpDate', () => {
  it('accepts the three forms of RFC 9110 5.6.7, all in GMT', () => {
    const moment = Date.parse('1994-11-06T08:49:37Z');
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(moment);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', NOW)).toBe(moment);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(moment);
  });

  it('reads a two-digit year more than 50 years ahead as the latest past year with those digits', () => {
    expect(parseHttpDate('Monday, 01-Mar-60 00:00:00 GMT', NOW)).toBe(Date.parse('2060-03-01T00:00:00Z'));
    expect(parseHttpDate('Monday, 01-Mar-99 00:00:00 GMT', NOW)).toBe(Date.parse('1999-03-01T00:00:00Z'));
  });
});

describe('backoffMs', () => {
  it('doubles with each retry and adds up to one base of jitter', () => {
    expect([1, 2, 3].map((attempt) => backoffMs(attempt, 500, () => 0))).toEqual([500, 1_000, 2_000]);
    expect([1, 2, 3].map((attempt) => backoffMs(attempt, 500, () => 0.999))).toEqual([999.5, 1_499.5, 2_499.5]);
  });
});

describe('sleep', () => {
  it('waits at least as long as asked', async () => {
    const started = performance.now();
    await sleep(100);
    await sleep(100, { ref: false });
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
  });

  it('ends early with the reason the run was stopped for, whether stopped before or during the wait', async () => {
    const reason = new Error('the run was stopped');
    const controller = new AbortController();
    const waiting = sleep(600_000, { signal: controller.signal });
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(sleep(600_000, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });
});
