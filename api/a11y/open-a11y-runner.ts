// Picks the accessibility runner of a run: headless Chromium when one is installed, else jsdom; and
// says afterwards how the run checked, for the report. The browser's module (playwright-core) is
// loaded only when a browser is used.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { childEnvironment } from '../child-environment.ts';
import type { GuardedHttpClient } from '../net/guarded-http.ts';
import type { Language } from '../i18n/languages.ts';
import { browserNicenessFromEnv, enhancedContrastFromEnv, findChromium, type AccessibilityCheckInfo, type AccessibilityRunner } from './a11y-runner.ts';
import { AXE_VERSION, rulesNotRun } from './axe-rules.ts';
import { IBM_ENGINE, ibmVersion } from './ibm-rules.ts';
import { JsdomRunner } from './jsdom-runner.ts';
import { PageResources } from './page-resources.ts';
import { resourcesUnchanged, type LoadedResource } from './resource-digests.ts';

export interface OpenA11yRunnerOptions {
  /** The run's tuning (CourseTestOptions): unset ones take their defaults. */
  options: { chromium?: string | null; enhancedContrast?: boolean; axeTimeoutMs?: number; a11yPages?: number };
  language?: Language;
  /** The client every request of a page goes through (the guarded link client). */
  http: GuardedHttpClient;
  siteOrigin: URL;
  /** The course under test: the session goes to its own files only. */
  orgUnitId: number;
  /** The session's headers for the site's own files; the browser never sees them. */
  sessionHeaders: (url: URL) => Record<string, string>;
  signal?: AbortSignal;
}

export interface OpenedA11yRunner {
  runner: AccessibilityRunner;
  /**
   * The renderer that judges pages, as part of a verdict's digest: the browser's build (its
   * `--version`), read without starting it, or `jsdom`. A Chromium update re-judges every page.
   */
  renderer: string;
  /** How the run checked accessibility, with the rules that failed to run (rule -> items) and the engines that failed (engine -> items). */
  describe(ruleErrors: ReadonlyMap<string, number>, engineErrors?: ReadonlyMap<string, number>, knownBrowserVersion?: string): Promise<AccessibilityCheckInfo>;
  /**
   * Whether every resource a page loaded last time still answers the same, asked through the run's
   * PageResources (which keeps answers for the run); true when there were none (jsdom loads nothing).
   */
  resourcesUnchanged(loaded: readonly LoadedResource[]): Promise<boolean>;
}

const builds = new Map<string, string>();

/**
 * What the Chromium at a path says it is (`Chromium 156.0.8078.108 built on Debian…`), asked once
 * per process and path with `--version`, which prints and exits without starting a browser. Where
 * it cannot say, the file's size and time stand for its build.
 */
export function chromiumBuild(path: string): string {
  let build = builds.get(path);
  if (build === undefined) {
    try {
      build = execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000, env: childEnvironment([]), stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      build = '';
    }
    if (build === '') {
      const file = statSync(path);
      build = `${path} ${file.size} ${file.mtimeMs}`;
    }
    builds.set(path, build);
  }
  return build;
}

export async function openAccessibilityRunner(input: OpenA11yRunnerOptions): Promise<OpenedA11yRunner> {
  const { options } = input;
  const chromium = options.chromium === undefined ? findChromium() : (options.chromium ?? undefined);
  const enhancedContrast = options.enhancedContrast ?? enhancedContrastFromEnv();
  const info = (mode: AccessibilityRunner['mode'], ruleErrors: ReadonlyMap<string, number>, browserVersion?: string, engineErrors?: ReadonlyMap<string, number>): AccessibilityCheckInfo => ({
    mode,
    axeVersion: AXE_VERSION,
    ...(browserVersion === undefined ? {} : { browserVersion }),
    // The second engine runs in the browser only; without one, axe-core checks alone (jsdom-runner.ts).
    ...(mode === 'browser' ? { secondEngine: { name: IBM_ENGINE, version: ibmVersion() } } : {}),
    ...(engineErrors === undefined || engineErrors.size === 0 ? {} : { engineErrors }),
    enhancedContrast,
    notRun: rulesNotRun(mode, enhancedContrast),
    ruleErrors,
  });
  if (chromium === undefined) {
    const runner = new JsdomRunner({ timeoutMs: options.axeTimeoutMs, language: input.language });
    return { runner, renderer: 'jsdom', describe: async (ruleErrors) => info('jsdom', ruleErrors), resourcesUnchanged: async (loaded) => loaded.length === 0 };
  }
  const { BrowserRunner } = await import('./browser-runner.ts');
  const resources = new PageResources({ http: input.http, siteOrigin: input.siteOrigin, orgUnitId: input.orgUnitId, sessionHeaders: input.sessionHeaders, signal: input.signal });
  const runner = new BrowserRunner({
    executablePath: chromium,
    resources,
    language: input.language,
    enhancedContrast,
    timeoutMs: options.axeTimeoutMs,
    pages: options.a11yPages,
    niceness: browserNicenessFromEnv(),
  });
  return {
    runner,
    renderer: chromiumBuild(chromium),
    // A browser that was never started (every verdict reused) is not started to say its version.
    describe: async (ruleErrors, engineErrors, knownBrowserVersion) =>
      info('browser', ruleErrors, runner.started || knownBrowserVersion === undefined ? await runner.version().catch(() => undefined) : knownBrowserVersion, engineErrors),
    resourcesUnchanged: (loaded) => resourcesUnchanged(loaded, (request) => resources.answer(request)),
  };
}
