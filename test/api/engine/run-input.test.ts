// One set of input rules: the API (run-tests), the engine (assertRunInput and its parts, which the
// command line and the Fargate task meet) and the command line hold a run's input to the same
// limits and the same field rules, each in its own words.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../api/errors.ts';
import { assertClientLabel, assertCredentials, assertModules, assertRunInput } from '../../../api/engine/run-input.ts';
import { INPUT_LIMITS } from '../../../api/engine/run-input-rules.ts';
import { parseRunTestsRequest } from '../../../api/http/validate-request.ts';

const strict = { allowPrivateTargets: false };
const body = { USER_NAME: 'qa', PASSWORD: 'secret', CLIENT_URL: 'https://acme.brightspace.com', ORG_UNIT_ID: 6606, CLIENT_NAME: 'Acme', MODULES: [1] };
const input = { username: 'qa', password: 'secret', orgUnitId: 6606, modules: [1], client: 'Acme' };

function apiRefusal(fields: Record<string, unknown>): string | undefined {
  try {
    parseRunTestsRequest({ ...body, ...fields }, strict);
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
}

function engineRefusal(fields: Record<string, unknown>): string | undefined {
  try {
    assertRunInput({ ...input, ...fields });
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
}

const ids = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

describe('a run’s input', () => {
  it('has one limit per field, the same for the API and the engine', () => {
    expect(INPUT_LIMITS).toMatchObject({ userName: 256, password: 1024, clientLabel: 100, modules: 2000 });
    const cases: [string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>][] = [
      ['the client label', { CLIENT_NAME: 'x'.repeat(100) }, { client: 'x'.repeat(100) }, { CLIENT_NAME: 'x'.repeat(101) }, { client: 'x'.repeat(101) }],
      ['the user name', { USER_NAME: 'x'.repeat(256) }, { username: 'x'.repeat(256) }, { USER_NAME: 'x'.repeat(257) }, { username: 'x'.repeat(257) }],
      ['the password', { PASSWORD: 'x'.repeat(1024) }, { password: 'x'.repeat(1024) }, { PASSWORD: 'x'.repeat(1025) }, { password: 'x'.repeat(1025) }],
      ['the modules', { MODULES: ids(2000) }, { modules: ids(2000) }, { MODULES: ids(2001) }, { modules: ids(2001) }],
    ];
    for (const [field, apiAtLimit, engineAtLimit, apiOver, engineOver] of cases) {
      expect(apiRefusal(apiAtLimit), field).toBeUndefined();
      expect(engineRefusal(engineAtLimit), field).toBeUndefined();
      expect(apiRefusal(apiOver), field).toBeDefined();
      expect(engineRefusal(engineOver), field).toBeDefined();
    }
    expect(engineRefusal({ client: 'x'.repeat(101) })).toBe('The Client label must be at most 100 characters.');
    expect(engineRefusal({ username: 'x'.repeat(257) })).toBe('The Brightspace Username and Password must be at most 256 characters.');
    expect(engineRefusal({ password: 'x'.repeat(1025) })).toBe('The Brightspace Username and Password must be at most 1,024 characters.');
  });

  it('is refused by the engine wherever the API refuses it', () => {
    const refusedByBoth: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['a password of spaces', { PASSWORD: '   ' }, { password: '   ' }],
      ['a module id of 0', { MODULES: [0] }, { modules: [0] }],
      ['a fractional module id', { MODULES: [1.5] }, { modules: [1.5] }],
      ['a control character in the label', { CLIENT_NAME: 'Acme\u0007' }, { client: 'Acme\u0007' }],
      ['a hidden character in the user name', { USER_NAME: 'qa\u202etester' }, { username: 'qa\u202etester' }],
      ['an unknown scope', { SCOPES: ['grades'] }, { scopes: ['grades'] }],
      ['too many scopes', { SCOPES: Array(13).fill('quizzes') }, { scopes: Array(13).fill('quizzes') }],
      ['an org unit of 0', { ORG_UNIT_ID: 0 }, { orgUnitId: 0 }],
    ];
    for (const [what, apiFields, engineFields] of refusedByBoth) {
      expect(apiRefusal(apiFields), what).toBeDefined();
      expect(engineRefusal(engineFields), what).toBeDefined();
    }
    expect(() => assertCredentials('   ', 'secret')).toThrow('The Brightspace Username is missing.');
    expect(() => assertCredentials('qa', '   ')).toThrow('The Brightspace Password is missing.');
    expect(() => assertCredentials('qa\u202etester', 'secret')).toThrow(
      'the Brightspace user name contains an invisible or direction-changing character (U+202E). Type it again without copying it from elsewhere.',
    );
    expect(() => assertClientLabel('Acme\u0007')).toThrow('The Client label contains an invisible or direction-changing character (U+0007).');
    expect(() => assertModules([0])).toThrow('Module ids must be whole numbers from the course table of contents.');
    expect(() => assertModules([])).toThrow('Pick at least one module or course-wide item to test.');
  });

  it('may be course-wide items alone, never nothing at all', () => {
    expect(apiRefusal({ MODULES: [], SCOPES: ['announcements'] })).toBeUndefined();
    expect(engineRefusal({ modules: [], scopes: ['announcements'] })).toBeUndefined();
    for (const scopes of [undefined, []]) {
      expect(apiRefusal({ MODULES: [], SCOPES: scopes })).toBe('MODULES must list at least one module ID, unless SCOPES lists course-wide items to test.');
      expect(engineRefusal({ modules: [], scopes })).toBe('Pick at least one module or course-wide item to test.');
    }
  });

  it('may leave sub-modules out of the chosen modules, never one it also chose', () => {
    expect(apiRefusal({ MODULES: [1, 2], EXCLUDE_MODULES: [3] })).toBeUndefined();
    expect(engineRefusal({ modules: [1, 2], excludeModules: [3] })).toBeUndefined();
    expect(apiRefusal({ MODULES: [1, 2], EXCLUDE_MODULES: [2] })).toBe('A module ID cannot be both in MODULES and in EXCLUDE_MODULES.');
    expect(engineRefusal({ modules: [1, 2], excludeModules: [2] })).toBe('A module cannot be both tested and left out. Load the modules again and pick from the list.');
    for (const excluded of [[0], ['3'], 'none']) {
      expect(apiRefusal({ EXCLUDE_MODULES: excluded })).toMatch(/^EXCLUDE_MODULES must be a list of module IDs/);
      expect(engineRefusal({ excludeModules: excluded })).toBe('Module ids must be whole numbers from the course table of contents.');
    }
    expect(apiRefusal({ EXCLUDE_MODULES: ids(2001).map((id) => id + 10) })).toBe('EXCLUDE_MODULES lists too many modules: at most 2,000.');
    // Every field at fault is named at once.
    expect(apiRefusal({ MODULES: [], CLIENT_NAME: '' })).toMatch(/CLIENT_NAME.*MODULES must list at least one module ID/s);
  });

  it('keeps the modules’ titles only as a label: what is not an id and a text is left out, never refused', () => {
    const titles = (sent: unknown) => parseRunTestsRequest({ ...body, MODULES: [1, 2, 3], MODULE_TITLES: sent }, strict).moduleTitles;
    expect(titles({ 1: ' Unit 1 ', 2: 'Unit\u202e 2\u0007', 3: 42, x: 'Not an id', 4: 'Not this run’s' })).toEqual({ 1: 'Unit 1', 2: 'Unit 2' });
    expect(titles({ 1: 'x'.repeat(300) })).toEqual({ 1: 'x'.repeat(200) });
    expect(titles({})).toBeUndefined();
    expect(apiRefusal({ MODULE_TITLES: ['Unit 1'] })).toBe('MODULE_TITLES must be an object of module IDs and their titles.');
  });

  it('keeps what the engine always took: every module, and a label with spaces around it', () => {
    expect(engineRefusal({ modules: 'all' })).toBeUndefined();
    expect(engineRefusal({ client: '  Acme  ', scopes: ['quizzes', 'quizzes'] })).toBeUndefined();
  });
});
