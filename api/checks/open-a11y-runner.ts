// Picks the accessibility runner of a run: headless Chromium when one is installed, else jsdom. The
// browser's module (playwright-core) is loaded only when a browser is used.
import type { GuardedHttpClient } from '../net/guarded-http.ts';
import type { Language } from '../i18n/languages.ts';
import type { AccessibilityRunner } from './a11y-runner.ts';
import { JsdomRunner } from './jsdom-runner.ts';
import { PageResources } from './page-resources.ts';

export interface OpenA11yRunnerOptions {
  /** The Chromium to drive, or undefined for the jsdom fallback. */
  chromium: string | undefined;
  language?: Language;
  enhancedContrast: boolean;
  /** Time limit of one item. */
  timeoutMs?: number;
  /** Pages checking items at once in the browser. */
  pages?: number;
  /** The client every request of a page goes through (the guarded link client). */
  http: GuardedHttpClient;
  siteOrigin: URL;
  /** The session's headers for the site's own files; the browser never sees them. */
  sessionHeaders: (url: URL) => Record<string, string>;
  signal?: AbortSignal;
}

export interface OpenedA11yRunner {
  runner: AccessibilityRunner;
  /** The Chromium version, once known (browser mode). */
  browserVersion(): Promise<string | undefined>;
}

export async function openAccessibilityRunner(options: OpenA11yRunnerOptions): Promise<OpenedA11yRunner> {
  if (options.chromium === undefined) {
    const runner = new JsdomRunner({ timeoutMs: options.timeoutMs, language: options.language });
    return { runner, browserVersion: async () => undefined };
  }
  const { BrowserRunner } = await import('./browser-runner.ts');
  const resources = new PageResources({ http: options.http, siteOrigin: options.siteOrigin, sessionHeaders: options.sessionHeaders, signal: options.signal });
  const runner = new BrowserRunner({
    executablePath: options.chromium,
    resources,
    language: options.language,
    enhancedContrast: options.enhancedContrast,
    timeoutMs: options.timeoutMs,
    pages: options.pages,
  });
  return { runner, browserVersion: () => runner.version().then((version) => version, () => undefined) };
}
