// The engine's own input checks: the HTTP layer validates too, but the command line and the
// Fargate task call the engine directly, so bad input is refused here with a plain message.
import { AppError } from '../errors.ts';
import { COURSE_SCOPES, type CourseScope } from '../http/contract.ts';
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
}

export function assertScopes(scopes: unknown): asserts scopes is CourseScope[] | undefined {
  if (scopes === undefined) return;
  const known = COURSE_SCOPES as readonly unknown[];
  if (!Array.isArray(scopes) || !scopes.every((scope) => known.includes(scope))) {
    throw new AppError('invalid_input', msg('error.field.scopes', { scopes: COURSE_SCOPES.join(', ') }));
  }
}
