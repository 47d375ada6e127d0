// The engine's own input checks: the HTTP layer validates too, but the command line and the
// Fargate task call the engine directly, so bad input is refused here with a plain message.
import { AppError } from '../errors.ts';
import { COURSE_SCOPES, type CourseScope } from '../brightspace/course-scopes.ts';
import { msg } from '../i18n/messages.ts';

const MAX_FIELD_LENGTH = 1024;

export function assertCredentials(username: unknown, password: unknown): void {
  if (typeof username !== 'string' || username.trim() === '') {
    throw new AppError('invalid_input', msg('error.input.username-missing'));
  }
  if (typeof password !== 'string' || password === '') {
    throw new AppError('invalid_input', msg('error.input.password-missing'));
  }
  if (username.length > MAX_FIELD_LENGTH || password.length > MAX_FIELD_LENGTH) {
    throw new AppError('invalid_input', msg('error.input.credentials-too-long', { max: MAX_FIELD_LENGTH }));
  }
}

export function assertOrgUnitId(orgUnitId: unknown): asserts orgUnitId is number {
  if (typeof orgUnitId !== 'number' || !Number.isSafeInteger(orgUnitId) || orgUnitId <= 0) {
    throw new AppError('invalid_input', msg('error.input.org-unit'));
  }
}

export function assertModules(modules: unknown): asserts modules is number[] | 'all' {
  if (modules === 'all') return;
  if (!Array.isArray(modules) || modules.length === 0) {
    throw new AppError('invalid_input', msg('error.input.no-modules'));
  }
  if (modules.length > 10_000 || !modules.every((id) => typeof id === 'number' && Number.isSafeInteger(id) && id >= 0)) {
    throw new AppError('invalid_input', msg('error.input.module-ids'));
  }
}

export function assertClientLabel(client: unknown): asserts client is string {
  if (typeof client !== 'string' || client.trim() === '') {
    throw new AppError('invalid_input', msg('error.input.client-missing'));
  }
  if (client.length > 200) throw new AppError('invalid_input', msg('error.input.client-too-long', { max: 200 }));
  const hidden = hiddenCharacterIn(client);
  if (hidden !== undefined) throw new AppError('invalid_input', msg('error.input.client-hidden-characters', { codePoint: hidden }));
}

// Characters that show nothing, or turn the reading direction of what follows ("Trojan Source"): in
// a label they make the report and its file name say something other than what a person sees.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u2028\u2029]/gu;
// Joiners that some scripts and emoji need, allowed between two visible characters; variation
// selectors, allowed right after one (they pick its form). Never at the start, nor beside another
// invisible character.
const JOINERS = /^[\u200c\u200d]$/u;
const SELECTORS = /^[\ufe00-\ufe0f\u180b-\u180d\u180f\u{e0100}-\u{e01ef}]$/u;

/** The first invisible or direction-changing character of a text, as U+XXXX; undefined when none. */
export function hiddenCharacterIn(text: string): string | undefined {
  for (const match of text.matchAll(INVISIBLE)) {
    const character = match[0];
    const at = match.index;
    const before = text.slice(0, at).at(-1);
    const after = text[at + character.length];
    const visible = (neighbour: string | undefined) => neighbour !== undefined && /\S/u.test(neighbour) && !/[\p{Default_Ignorable_Code_Point}]/u.test(neighbour);
    if (JOINERS.test(character) && visible(before) && visible(after)) continue;
    if (SELECTORS.test(character) && visible(before)) continue;
    return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return undefined;
}

export function assertScopes(scopes: unknown): asserts scopes is CourseScope[] | undefined {
  if (scopes === undefined) return;
  const known = COURSE_SCOPES as readonly unknown[];
  if (!Array.isArray(scopes) || !scopes.every((scope) => known.includes(scope))) {
    throw new AppError('invalid_input', msg('error.field.scopes', { scopes: COURSE_SCOPES.join(', ') }));
  }
}

/** The engine's whole input, checked before anything is opened; throws an AppError naming the field. */
export function assertRunInput(input: { username: unknown; password: unknown; orgUnitId: unknown; modules: unknown; client: unknown; scopes?: unknown }): void {
  assertCredentials(input.username, input.password);
  assertOrgUnitId(input.orgUnitId);
  assertModules(input.modules);
  assertClientLabel(input.client);
  assertScopes(input.scopes);
}
