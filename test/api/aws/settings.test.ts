// The task's settings read from its environment: the link maximum age, one day unless set.
import { describe, expect, it } from 'vitest';
import { linkMaxAgeMs } from '../../../api/aws/settings.ts';

const HOUR = 3_600_000;

describe('the link maximum age setting', () => {
  it('is one day when unset or blank, the hours given otherwise, and 0 asks every link again', () => {
    expect(linkMaxAgeMs({})).toBe(24 * HOUR);
    expect(linkMaxAgeMs({ CTPO_LINK_MAX_AGE_HOURS: ' ' })).toBe(24 * HOUR);
    expect(linkMaxAgeMs({ CTPO_LINK_MAX_AGE_HOURS: '48' })).toBe(48 * HOUR);
    expect(linkMaxAgeMs({ CTPO_LINK_MAX_AGE_HOURS: ' 6 ' })).toBe(6 * HOUR);
    expect(linkMaxAgeMs({ CTPO_LINK_MAX_AGE_HOURS: '0' })).toBe(0);
  });

  it.each(['1.5', '-1', '1d', 'soon', '9'.repeat(20)])('refuses %j, naming the setting', (value) => {
    expect(() => linkMaxAgeMs({ CTPO_LINK_MAX_AGE_HOURS: value })).toThrow(/^CTPO_LINK_MAX_AGE_HOURS must be a whole number of hours/);
  });
});
