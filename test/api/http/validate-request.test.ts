import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError, isAppError } from '../../../api/errors.ts';
import { assertClientLabel } from '../../../api/engine/run-input.ts';
import { MAX_BODY_BYTES } from '../../../api/http/contract.ts';
import { INPUT_LIMITS } from '../../../api/engine/run-input-rules.ts';
import { parseJobId, parseRunTestsRequest, parseTocRequest, readJsonBody } from '../../../api/http/validate-request.ts';

const strict = { allowPrivateTargets: false };
const valid = {
  USER_NAME: '  qa.tester ',
  PASSWORD: ' pass word ',
  CLIENT_URL: 'https://acme.brightspace.com/d2l/home',
  ORG_UNIT_ID: '6606',
  CLIENT_NAME: ' Acme College ',
  MODULES: [12, 13, 12],
};

function errorOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('the run-tests request', () => {
  it('comes out trimmed and typed: the site origin, a numeric org unit, distinct modules, the password as typed', () => {
    expect(parseRunTestsRequest(valid, strict)).toEqual({
      username: 'qa.tester',
      password: ' pass word ',
      siteUrl: 'https://acme.brightspace.com',
      orgUnitId: 6606,
      client: 'Acme College',
      modules: [12, 13],
    });
    expect(parseRunTestsRequest({ ...valid, ORG_UNIT_ID: 6606 }, strict).orgUnitId).toBe(6606);
  });

  it('takes the optional SCOPES and LANGUAGE, and refuses values that are not ours', () => {
    expect(parseRunTestsRequest({ ...valid, SCOPES: ['quizzes', 'gradebook', 'quizzes'], LANGUAGE: 'fr-fr' }, strict)).toMatchObject({
      scopes: ['quizzes', 'gradebook'],
      language: 'fr-FR',
    });
    expect(parseRunTestsRequest({ ...valid, SCOPES: [] }, strict).scopes).toEqual([]);
    expect(parseRunTestsRequest(valid, strict)).not.toHaveProperty('scopes');
    expect(errorOf(() => parseRunTestsRequest({ ...valid, SCOPES: ['grades'] }, strict)).message).toContain('SCOPES must be a list');
    expect(errorOf(() => parseRunTestsRequest({ ...valid, SCOPES: 'all' }, strict)).code).toBe('invalid_input');
    expect(errorOf(() => parseRunTestsRequest({ ...valid, LANGUAGE: 'xx' }, strict)).message).toContain('LANGUAGE must be one of ar, cy');
    expect(parseTocRequest({ ...valid, LANGUAGE: 'ar' }, strict).language).toBe('ar');
  });

  it('takes FULL ("check everything again") only when it is true, and refuses what is not true or false', () => {
    expect(parseRunTestsRequest({ ...valid, FULL: true }, strict).full).toBe(true);
    for (const full of [false, null, undefined]) expect(parseRunTestsRequest({ ...valid, FULL: full }, strict)).not.toHaveProperty('full');
    const refused = errorOf(() => parseRunTestsRequest({ ...valid, FULL: 'yes' }, strict));
    expect(refused.code).toBe('invalid_input');
    expect(refused.message).toContain('FULL must be true or false');
  });

  it.each([
    ['a missing field', { ...valid, USER_NAME: undefined }, 'USER_NAME is required'],
    ['a blank field', { ...valid, CLIENT_NAME: '   ' }, 'CLIENT_NAME must not be empty'],
    ['a number where text belongs', { ...valid, PASSWORD: 1234 }, 'PASSWORD must be text'],
    ['a non-numeric org unit', { ...valid, ORG_UNIT_ID: 'abc' }, 'ORG_UNIT_ID must be a positive whole number'],
    ['a fractional org unit', { ...valid, ORG_UNIT_ID: 66.5 }, 'ORG_UNIT_ID must be a positive whole number'],
    ['a zero org unit', { ...valid, ORG_UNIT_ID: '0' }, 'ORG_UNIT_ID must be a positive whole number'],
    ['an exponent org unit', { ...valid, ORG_UNIT_ID: '1e3' }, 'ORG_UNIT_ID must be a positive whole number'],
    ['modules as text', { ...valid, MODULES: '12,13' }, 'MODULES must be a list'],
    ['an empty module list', { ...valid, MODULES: [] }, 'MODULES must list at least one'],
    ['module ids as strings', { ...valid, MODULES: ['12'] }, 'MODULES must contain only module IDs'],
    ['a negative module id', { ...valid, MODULES: [-1] }, 'MODULES must contain only module IDs'],
    ['too many modules', { ...valid, MODULES: Array.from({ length: INPUT_LIMITS.modules + 1 }, (_, i) => i + 1) }, 'MODULES lists too many'],
    ['a long client label', { ...valid, CLIENT_NAME: 'x'.repeat(INPUT_LIMITS.clientLabel + 1) }, 'CLIENT_NAME is too long'],
    ['a control character in the label', { ...valid, CLIENT_NAME: 'Acme\u0007' }, 'must not contain control characters'],
    ['an http site', { ...valid, CLIENT_URL: 'http://acme.brightspace.com' }, 'CLIENT_URL: The address must start with https://.'],
    ['a site that is not an address', { ...valid, CLIENT_URL: 'acme' }, 'CLIENT_URL: This is not a valid web address'],
  ])('is refused with a clear 400 for %s', (_case, body, message) => {
    const error = errorOf(() => parseRunTestsRequest(body, strict));
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
  });

  it('names every field at fault at once', () => {
    const error = errorOf(() => parseRunTestsRequest({ ORG_UNIT_ID: 'x', MODULES: [] }, strict));
    expect(error.code).toBe('invalid_input');
    for (const field of ['USER_NAME', 'PASSWORD', 'CLIENT_URL', 'ORG_UNIT_ID', 'CLIENT_NAME', 'MODULES']) expect(error.message).toContain(field);
  });

  it('refuses a private or loopback site address unless the local switch is on', () => {
    for (const url of ['https://127.0.0.1', 'https://10.0.0.8', 'https://[::1]:8444', 'https://localhost', 'https://169.254.169.254']) {
      const error = errorOf(() => parseRunTestsRequest({ ...valid, CLIENT_URL: url }, strict));
      expect(error.code).toBe('address_not_allowed');
      expect(error.status).toBe(400);
    }
    expect(parseRunTestsRequest({ ...valid, CLIENT_URL: 'https://127.0.0.1:8444' }, { allowPrivateTargets: true }).siteUrl).toBe('https://127.0.0.1:8444');
    // The local demo course is plain http on loopback: allowed with the local switch only.
    expect(parseRunTestsRequest({ ...valid, CLIENT_URL: 'http://localhost:8444/d2l/home' }, { allowPrivateTargets: true }).siteUrl).toBe('http://localhost:8444');
  });

  it('refuses invisible and direction-changing characters in the client label and the user name, and names them', () => {
    const hidden: [string, string][] = [
      ['Acme \u202eegelloC', 'U+202E'], // right-to-left override: shows as "Acme College" backwards
      ['Acme\u2066 College\u2069', 'U+2066'], // an isolate
      ['Acme\u200f College', 'U+200F'], // right-to-left mark
      ['Ac\u200bme College', 'U+200B'], // zero-width space
      ['\u200dAcme College', 'U+200D'], // a joiner at the edge joins nothing
      ['Acme\u00ad College', 'U+00AD'], // soft hyphen
      ['Acme College\u{e0041}', 'U+E0041'], // a tag character
      ['Acme\u3164College', 'U+3164'], // Hangul filler, an invisible letter
      ['Acme\u2028College', 'U+2028'], // line separator
    ];
    for (const [label, codePoint] of hidden) {
      const error = errorOf(() => parseRunTestsRequest({ ...valid, CLIENT_NAME: label }, strict));
      expect(error.code, label).toBe('invalid_input');
      expect(error.message, label).toBe(`CLIENT_NAME contains an invisible or direction-changing character (${codePoint}). Type it again without copying it from elsewhere.`);
    }
    expect(errorOf(() => parseRunTestsRequest({ ...valid, USER_NAME: 'qa\u202etester' }, strict)).message).toContain('USER_NAME contains an invisible');
    // The engine refuses them too, for the command line and the Fargate task that call it directly.
    expect(() => assertClientLabel('Acme \u202eegelloC')).toThrow('The Client label contains an invisible or direction-changing character (U+202E).');
    // Scripts and emoji that need a joiner or a variation selector between two characters keep it.
    for (const label of ['می\u200cخواهم', 'क्\u200dष', 'Team 👩\u200d💻', 'Heart ❤\ufe0f', 'مدرسة الأمل', 'אקמה']) {
      expect(parseRunTestsRequest({ ...valid, CLIENT_NAME: label }, strict).client, label).toBe(label);
    }
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, [], 'text', 42, true]) {
      expect(errorOf(() => parseRunTestsRequest(body, strict)).message).toContain('must be a JSON object');
    }
  });
});

describe('the toc request', () => {
  it('needs the four fields, and keeps the password exactly', () => {
    expect(parseTocRequest({ ORG_UNIT_ID: 6606, CLIENT_URL: 'https://acme.brightspace.com', USER_NAME: 'qa', PASSWORD: 'p ' }, strict)).toEqual({
      orgUnitId: 6606,
      siteUrl: 'https://acme.brightspace.com',
      username: 'qa',
      password: 'p ',
    });
    expect(errorOf(() => parseTocRequest({ ORG_UNIT_ID: 'six', CLIENT_URL: 'https://a.test', USER_NAME: 'qa', PASSWORD: 'p' }, strict)).message).toBe(
      'ORG_UNIT_ID must be a positive whole number, such as 6606.',
    );
  });
});

describe('the JSON body', () => {
  const request = (body: string, contentType = 'application/json') => ({ method: 'POST', path: '/api/toc', headers: { 'content-type': contentType }, body });

  it('must be JSON, declared as JSON, within 64 KiB', () => {
    expect(readJsonBody(request('{"a":1}', 'application/json; charset=utf-8'))).toEqual({ a: 1 });
    expect(errorOf(() => readJsonBody(request('{"a":1}', 'text/plain'))).status).toBe(415);
    expect(errorOf(() => readJsonBody(request('{"a":'))).status).toBe(400);
    expect(errorOf(() => readJsonBody(request(JSON.stringify({ pad: 'x'.repeat(MAX_BODY_BYTES) })))).status).toBe(413);
  });
});

describe('the job identifier', () => {
  it('is decoded from the address, and refused when malformed', () => {
    expect(parseJobId('arn%3Aaws%3Aecs%3Atask%2Fabc')).toBe('arn:aws:ecs:task/abc');
    expect(errorOf(() => parseJobId('%E0%A4%A')).status).toBe(400);
    expect(errorOf(() => parseJobId('')).status).toBe(400);
    expect(errorOf(() => parseJobId('x'.repeat(300))).status).toBe(400);
  });
});

describe('any JSON value', () => {
  // Values near the real shape find more edge cases than fully random ones.
  const fieldValue = fc.oneof(
    fc.jsonValue(),
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.constantFrom('https://acme.brightspace.com', 'https://127.0.0.1', 'http://x', ' 6606 ', '', '   '),
    fc.array(fc.oneof(fc.integer(), fc.double(), fc.string()), { maxLength: 5 }),
  );
  const nearlyValid = fc.record(
    { USER_NAME: fieldValue, PASSWORD: fieldValue, CLIENT_URL: fieldValue, ORG_UNIT_ID: fieldValue, CLIENT_NAME: fieldValue, MODULES: fieldValue },
    { requiredKeys: [] },
  );
  const anyBody = fc.oneof(fc.jsonValue(), nearlyValid);

  it('becomes a valid run-tests request or a 400 AppError, never anything else', () => {
    fc.assert(
      fc.property(anyBody, fc.boolean(), (body, allowPrivateTargets) => {
        try {
          const input = parseRunTestsRequest(body, { allowPrivateTargets });
          expect(input.username).toBe(input.username.trim());
          expect(input.username.length).toBeGreaterThan(0);
          expect(input.password.trim().length).toBeGreaterThan(0);
          expect(Number.isSafeInteger(input.orgUnitId) && input.orgUnitId > 0).toBe(true);
          expect(input.modules.length).toBeGreaterThan(0);
          expect(input.modules.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true);
          expect(allowPrivateTargets ? ['https:', 'http:'] : ['https:']).toContain(new URL(input.siteUrl).protocol);
        } catch (error) {
          if (!isAppError(error)) throw error;
          expect(error.status).toBe(400);
          expect(error.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('becomes a valid toc request or a 400 AppError, and any text body a parsed value or a 4xx', () => {
    fc.assert(
      fc.property(anyBody, (body) => {
        try {
          parseTocRequest(body, strict);
        } catch (error) {
          if (!isAppError(error)) throw error;
          expect(error.status).toBe(400);
        }
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        try {
          readJsonBody({ method: 'POST', path: '/api/toc', headers: { 'content-type': 'application/json' }, body: text });
        } catch (error) {
          if (!isAppError(error)) throw error;
          expect([400, 413]).toContain(error.status);
        }
      }),
      { numRuns: 500 },
    );
  });
});
