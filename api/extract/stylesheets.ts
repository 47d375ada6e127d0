// The course's own stylesheets: each is read once per run (with the Brightspace session, by the
// engine's reader), and its addresses, with those of the course stylesheets it imports, are
// checked as if they were in every topic that uses it, since that is where students meet them.
import { stylesheetLinks, type LinkOccurrence } from './html.ts';

export const MAX_STYLESHEET_BYTES = 2 * 1024 * 1024;
// Course stylesheets importing course stylesheets: deeper chains are not followed.
const MAX_IMPORT_DEPTH = 4;

export interface CourseStylesheetsOptions {
  /** Reads a stylesheet of the course; null when it cannot be read (the link check reports why). */
  read: (url: URL) => Promise<string | null>;
  /** Whether an address is one of the course's own (read with the session) rather than elsewhere. */
  isOwn: (url: URL) => boolean;
  orgUnitId: number;
}

function fileName(url: URL): string {
  const last = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last) || url.pathname;
  } catch {
    return last || url.pathname;
  }
}

export class CourseStylesheets {
  readonly #options: CourseStylesheetsOptions;
  readonly #sheets = new Map<string, Promise<LinkOccurrence[]>>();

  constructor(options: CourseStylesheetsOptions) {
    this.#options = options;
  }

  /**
   * The addresses a course stylesheet makes a browser load, with those of the course stylesheets
   * it imports; each names its stylesheet as the text the author sees. Empty for other sites.
   */
  async linksOf(address: string): Promise<LinkOccurrence[]> {
    const result: LinkOccurrence[] = [];
    const seen = new Set<string>([address]);
    let level = [address];
    for (let depth = 0; depth < MAX_IMPORT_DEPTH && level.length > 0; depth++) {
      const next: string[] = [];
      for (const links of await Promise.all(level.map((sheet) => this.#own(sheet)))) {
        for (const link of links) {
          result.push(link);
          if (link.stylesheet && link.url !== null && !seen.has(link.url)) {
            seen.add(link.url);
            next.push(link.url);
          }
        }
      }
      level = next;
    }
    return result;
  }

  /** One stylesheet's own addresses, read once per run. */
  #own(address: string): Promise<LinkOccurrence[]> {
    let sheet = this.#sheets.get(address);
    if (sheet === undefined) {
      const url = new URL(address);
      sheet = !this.#options.isOwn(url)
        ? Promise.resolve([])
        : this.#options.read(url).then((css) => {
          if (css === null) return [];
          const name = fileName(url);
          return stylesheetLinks(css, url, this.#options.orgUnitId).map((link) => ({ ...link, text: name }));
        });
      this.#sheets.set(address, sheet);
    }
    return sheet;
  }
}
