// The engine's own input checks: the HTTP layer validates too, but the command line and the
// Fargate task call the engine directly, so bad input is refused here with a plain message.
import { AppError } from '../errors.ts';

const MAX_FIELD_LENGTH = 1024;

export function assertCredentials(username: unknown, password: unknown): void {
  if (typeof username !== 'string' || username.trim() === '') {
    throw new AppError('invalid_input', 'The Brightspace Username is missing.');
  }
  if (typeof password !== 'string' || password === '') {
    throw new AppError('invalid_input', 'The Brightspace Password is missing.');
  }
  if (username.length > MAX_FIELD_LENGTH || password.length > MAX_FIELD_LENGTH) {
    throw new AppError('invalid_input', `The Brightspace Username and Password must be at most ${MAX_FIELD_LENGTH} characters.`);
  }
}

export function assertOrgUnitId(orgUnitId: unknown): asserts orgUnitId is number {
  if (typeof orgUnitId !== 'number' || !Number.isSafeInteger(orgUnitId) || orgUnitId <= 0) {
    throw new AppError('invalid_input', 'The Org Unit ID must be a whole number greater than 0, as in the course address (/d2l/home/12345).');
  }
}

export function assertModules(modules: unknown): asserts modules is number[] | 'all' {
  if (modules === 'all') return;
  if (!Array.isArray(modules) || modules.length === 0) {
    throw new AppError('invalid_input', 'Pick at least one module to test.');
  }
  if (modules.length > 10_000 || !modules.every((id) => typeof id === 'number' && Number.isSafeInteger(id) && id >= 0)) {
    throw new AppError('invalid_input', 'Module ids must be whole numbers from the course table of contents.');
  }
}

export function assertClientLabel(client: unknown): asserts client is string {
  if (typeof client !== 'string' || client.trim() === '') {
    throw new AppError('invalid_input', 'The Client label is missing.');
  }
  if (client.length > 200) throw new AppError('invalid_input', 'The Client label must be at most 200 characters.');
}
