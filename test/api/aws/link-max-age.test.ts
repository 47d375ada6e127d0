// The task's link maximum age, read from its environment: the engine's default unless set.
import { describe, expect, it } from 'vitest';
import { linkMaxAgeMs } from '../../../api/aws/fargate-task.ts';

const HOUR = 3_600_000;

describe('the link maximum age setting', () => {
  it('is left to the engine (one day) when unset or blank, read as the local server reads it otherwise, and 0 asks every link again', () => {
    expect(linkMaxAgeMs({})).toBeUndefined();
    expect(linkMaxAgeMs({ CTPO_LINK_MAX_AGE: ' ' })).toBeUndefined();
    expect(linkMaxAgeMs({ CTPO_LINK_MAX_AGE: '48h' })).toBe(48 * HOUR);
    expect(linkMaxAgeMs({ CTPO_LINK_MAX_AGE: ' 2d ' })).toBe(48 * HOUR);
    expect(linkMaxAgeMs({ CTPO_LINK_MAX_AGE: '3600' })).toBe(HOUR);
    expect(linkMaxAgeMs({ CTPO_LINK_MAX_AGE: '0' })).toBe(0);
  });

  it.each(['1.5h', '-1', 'soon', '1w'])('refuses %j, naming the setting', (value) => {
    expect(() => linkMaxAgeMs({ CTPO_LINK_MAX_AGE: value })).toThrow(/^CTPO_LINK_MAX_AGE must be a number of seconds/);
  });
});
