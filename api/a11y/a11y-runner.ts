// The accessibility runner: where axe-core runs on an item. Two implementations: headless Chromium
// (browser-runner.ts), which renders the item as a student's browser would, and jsdom
// (jsdom-runner.ts), the stated fallback when no browser is installed. A run uses one of them,
// picked once at its start.
import { accessSync, constants } from 'node:fs';
import type { PageCheckOutcome } from './page-checks/page-facts.ts';
import type { A11yMode, AxeOutcome } from './axe-rules.ts';
import type { LoadedResource } from './resource-digests.ts';
import { chromiumSandboxAvailable } from './sandboxed-chromium.ts';

/** One item to check. */
export interface A11yItem {
  /** The item's HTML: a whole document, or a fragment rendered inside a minimal page. */
  html: string;
  /** The address the item is shown at: the page's own address, which relative addresses resolve against. */
  url: URL;
  whole: boolean;
  /** A title for the minimal page around a fragment. */
  title?: string;
}

export interface AccessibilityRunner {
  readonly mode: A11yMode;
  /** Starts what the first item needs (a browser, a worker) ahead of it. */
  warmUp(): void;
  /** axe's results for one item (and, in a browser, the page checks' facts); rejects with an AppError saying why the item could not be checked. */
  run(item: A11yItem): Promise<AxeOutcome & PageCheckOutcome & { resources?: LoadedResource[] }>;
  /** Stops everything started; no browser process outlives it. */
  close(): Promise<void>;
}

/** How a run checked accessibility, for the report (report/accessibility-summary.ts words it). */
export interface AccessibilityCheckInfo {
  mode: A11yMode;
  axeVersion: string;
  browserVersion?: string;
  enhancedContrast: boolean;
  /** Rules a browser would have run that this run did not. */
  notRun: string[];
  /** Rule id -> items it failed to run on. */
  ruleErrors: ReadonlyMap<string, number>;
  /** The engine beside axe-core (browser only). */
  secondEngine?: { name: string; version: string };
  /** Engine -> items it failed on while the other engine's verdicts stood. */
  engineErrors?: ReadonlyMap<string, number>;
}

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium to use: `CTPO_CHROMIUM` when set (`off` for none), else Debian's `/usr/bin/chromium`
 * when installed. Undefined means no browser: the jsdom fallback.
 */
export function findChromium(env: Record<string, string | undefined> = process.env): string | undefined {
  const configured = env.CTPO_CHROMIUM?.trim();
  if (configured === 'off') return undefined;
  const path = configured || DEFAULT_CHROMIUM;
  return executable(path) && chromiumSandboxAvailable() ? path : undefined;
}

/** How many nice steps the browser's scheduling group stays below the process that runs it, by default. */
export const BROWSER_NICENESS = 10;

/**
 * The browser's place behind its run from the environment: `CTPO_BROWSER_NICENESS`, nice steps
 * from 0 to 19 (10 when unset or not such a number), or `off` to leave the browser as it starts
 * (null). See lowerBrowserPriority in browser-runner.ts.
 */
export function browserNicenessFromEnv(env: Record<string, string | undefined> = process.env): number | null {
  const configured = env.CTPO_BROWSER_NICENESS?.trim();
  if (configured === 'off') return null;
  return configured !== undefined && /^\d{1,2}$/.test(configured) && Number(configured) <= 19 ? Number(configured) : BROWSER_NICENESS;
}

/** The AAA enhanced-contrast switch of the environment (`CTPO_ENHANCED_CONTRAST=1`). */
export function enhancedContrastFromEnv(env: Record<string, string | undefined> = process.env): boolean {
  return env.CTPO_ENHANCED_CONTRAST === '1' || env.CTPO_ENHANCED_CONTRAST === 'true';
}

/**
 * One line for the command line and the local server's start: how runs will check accessibility.
 * English only, like the rest of those tools' output.
 */
export function describeAccessibilityMode(chromium: string | undefined, enhancedContrast: boolean, notRunWithoutBrowser: number): string {
  if (chromium !== undefined) {
    return `axe-core in headless Chromium (${chromium})${enhancedContrast ? ', AAA enhanced contrast included (CTPO_ENHANCED_CONTRAST)' : ''}.`;
  }
  return `no Chromium found, so axe-core runs without a browser (jsdom): colour contrast and ${notRunWithoutBrowser - 1} other rules are not checked. Install Chromium, or set CTPO_CHROMIUM, for the full check.`;
}
