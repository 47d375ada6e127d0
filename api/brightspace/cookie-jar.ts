// The Brightspace session lives here, in memory only, for one site origin. Nothing in this file may
// print, log or serialise the values: inspecting or stringifying a jar shows no cookie.
import { inspect } from 'node:util';

export class CookieJar {
  readonly #cookies = new Map<string, string>();

  /** Takes the `Set-Cookie` headers of one answer from the site. */
  store(setCookie: string | string[] | undefined): void {
    if (setCookie === undefined) return;
    for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) {
      const [pair = '', ...attributes] = line.split(';');
      const equals = pair.indexOf('=');
      if (equals <= 0) continue;
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      if (isExpired(attributes) || value === '') this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  has(name: string): boolean {
    return this.#cookies.has(name);
  }

  /** The `Cookie` header for a request to the site, or undefined when there is nothing to send. */
  header(): string | undefined {
    if (this.#cookies.size === 0) return undefined;
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  clear(): void {
    this.#cookies.clear();
  }

  toJSON(): string {
    return '[cookies hidden]';
  }

  [inspect.custom](): string {
    return 'CookieJar [cookies hidden]';
  }
}

function isExpired(attributes: string[]): boolean {
  for (const attribute of attributes) {
    const [rawName = '', ...rest] = attribute.split('=');
    const name = rawName.trim().toLowerCase();
    const value = rest.join('=').trim();
    if (name === 'max-age' && Number(value) <= 0) return true;
    if (name === 'expires') {
      const when = Date.parse(value);
      if (!Number.isNaN(when) && when <= Date.now()) return true;
    }
  }
  return false;
}
