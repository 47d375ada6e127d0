import { describe, expect, it } from 'vitest';
import { AppError } from '../../api/errors.ts';
import { failureDetail } from '../../api/log.ts';
import { msg } from '../../api/i18n/messages.ts';

describe('a failure as it is logged', () => {
  it('keeps CTPO’s own messages whole, whatever the password is', () => {
    const error = new AppError('login_failed', msg('error.site.login-failed'));
    const line = failureDetail(error, ['p']);
    expect(line).toMatch(/^AppError: Brightspace did not accept this user name and password\. Check them and try again\.\n\s+at /);
    expect(line).not.toContain('redacted');
  });

  it('leaves out the message of any other error that contains the password, and keeps its frames', () => {
    const error = new TypeError('Unexpected token in "hunter2-pass"');
    const line = failureDetail(error, ['hunter2-pass']);
    expect(line).not.toContain('hunter2-pass');
    expect(line).not.toContain('redacted');
    expect(line).toMatch(/^TypeError \(its message is not logged\)\n\s+at /);
    expect(failureDetail(new TypeError('Cannot read properties of undefined'), ['hunter2-pass'])).toMatch(/^TypeError: Cannot read properties of undefined/);
  });

  it('never prints a thrown value that is not an error', () => {
    expect(failureDetail('the password is hunter2', ['hunter2'])).toBe('a string was thrown');
  });
});
