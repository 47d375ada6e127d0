// The engine's own input checks: the HTTP layer validates too, but the command line and the Fargate
// task call the engine directly, so bad input is refused here with a plain message. The rules and
// limits are the ones the API and the command line use (run-input-rules.ts); only the words differ.
import { AppError } from '../errors.ts';
import { COURSE_SCOPES, type CourseScope } from '../brightspace/course-scopes.ts';
import { msg, type Message } from '../i18n/messages.ts';
import {
  clientLabelRule,
  courseScopesRule,
  excludedModuleIdsRule,
  firstBrokenRule,
  moduleChoiceRule,
  passwordRule,
  positiveIdRule,
  runSelectionIssue,
  userNameRule,
  type BrokenRule,
} from './run-input-rules.ts';

function refuse(message: Message): never {
  throw new AppError('invalid_input', message);
}

const isMissing = (broken: BrokenRule) => broken.rule === 'required' || broken.rule === 'not-text' || broken.rule === 'empty';

export function assertCredentials(username: unknown, password: unknown): void {
  const user = firstBrokenRule(userNameRule, username);
  if (user !== undefined) {
    if (isMissing(user)) refuse(msg('error.input.username-missing'));
    if (user.rule === 'too-long') refuse(msg('error.input.credentials-too-long', { max: user.max ?? 0 }));
    refuse(msg('error.field.hidden-characters', { field: msg('error.field.what.user-name'), codePoint: user.codePoint ?? '' }));
  }
  const secret = firstBrokenRule(passwordRule, password);
  if (secret !== undefined) {
    if (isMissing(secret)) refuse(msg('error.input.password-missing'));
    refuse(msg('error.input.credentials-too-long', { max: secret.max ?? 0 }));
  }
}

export function assertOrgUnitId(orgUnitId: unknown): asserts orgUnitId is number {
  if (firstBrokenRule(positiveIdRule, orgUnitId) !== undefined) refuse(msg('error.input.org-unit'));
}

/**
 * The modules to test (or 'all'), those to leave out of them, and the course-wide items: something
 * to test, each list of ids within the rules, and no module both chosen and left out.
 */
export function assertModules(modules: unknown, excludeModules?: unknown, scopes?: unknown): asserts modules is number[] | 'all' {
  if (modules !== 'all') {
    const broken = firstBrokenRule(moduleChoiceRule, modules);
    if (broken !== undefined) refuse(msg(broken.rule === 'required' || broken.rule === 'not-list' ? 'error.input.no-modules' : 'error.input.module-ids'));
  }
  if (excludeModules !== undefined && firstBrokenRule(excludedModuleIdsRule, excludeModules) !== undefined) refuse(msg('error.input.module-ids'));
  const issue = runSelectionIssue({ modules, excludeModules, scopes });
  if (issue?.field === 'modules') refuse(msg('error.input.no-modules'));
  if (issue !== undefined) refuse(msg('error.input.excluded-also-chosen'));
}

export function assertClientLabel(client: unknown): asserts client is string {
  const broken = firstBrokenRule(clientLabelRule, client);
  if (broken === undefined) return;
  if (isMissing(broken)) refuse(msg('error.input.client-missing'));
  if (broken.rule === 'too-long') refuse(msg('error.input.client-too-long', { max: broken.max ?? 0 }));
  refuse(msg('error.input.client-hidden-characters', { codePoint: broken.codePoint ?? '' }));
}

export function assertScopes(scopes: unknown): asserts scopes is CourseScope[] | undefined {
  if (scopes === undefined) return;
  if (firstBrokenRule(courseScopesRule, scopes) !== undefined) refuse(msg('error.field.scopes', { scopes: COURSE_SCOPES.join(', ') }));
}

/** The engine's whole input, checked before anything is opened; throws an AppError naming the field. */
export function assertRunInput(input: { username: unknown; password: unknown; orgUnitId: unknown; modules: unknown; excludeModules?: unknown; client: unknown; scopes?: unknown }): void {
  assertCredentials(input.username, input.password);
  assertOrgUnitId(input.orgUnitId);
  assertModules(input.modules, input.excludeModules, input.scopes);
  assertClientLabel(input.client);
  assertScopes(input.scopes);
}
