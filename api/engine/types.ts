// The engine's input: what a run tests and how. `runCourseTest` (run-course-test.ts) is the one entry
// point every runner uses.
import type { CourseScope } from '../brightspace/course-scopes.ts';
import type { DocumentLimits } from '../extract/document-facts.ts';
import type { LinkCheckLimits } from '../net/link-checker.ts';
import type { Language } from '../i18n/languages.ts';
import type { Resolver } from '../net/address-guard.ts';
import type { VerdictCache } from './verdict-cache.ts';

export interface CourseTestInput {
  /** The Brightspace site origin, e.g. https://school.brightspace.com */
  siteUrl: string;
  username: string;
  password: string;
  orgUnitId: number;
  /**
   * Module ids to test (nested modules of a selected module included), or every module; none when
   * the run reads course-wide items only.
   */
  modules: number[] | 'all';
  /** Modules nested in a selected one to leave out, each with everything nested in it. */
  excludeModules?: number[];
  /** The client label shown in the report. */
  client: string;
  /** Course-wide items to read besides the modules (none when absent). */
  scopes?: CourseScope[];
  /** The report's language (English when absent). */
  language?: Language;
  /** The address guard's local-use switch: lets loopback and private addresses through. */
  allowPrivateTargets: boolean;
  signal?: AbortSignal;
  /** Told the course's name as soon as the run has read it (a job monitor names the run with it). */
  onCourseName?: (name: string) => void;
  /** Tuning; the defaults suit a real course. */
  options?: CourseTestOptions;
  /**
   * Where verdicts are kept between runs of the course: an item whose digest is unchanged is not
   * judged again (run-verdicts.ts). None: every item is judged, nothing is kept.
   */
  cache?: VerdictCache;
  /** Check everything again: the cache's verdicts are not reused (what this run checks is still kept). */
  full?: boolean;
}

export interface CourseTestOptions {
  /** DNS used by the address guard; tests inject answers here. */
  resolve?: Resolver;
  /** "Now" for the date checks. */
  now?: Date;
  /** Time limit of one link check request (default 15 s). */
  linkTimeoutMs?: number;
  /** Time limit of one request to the Brightspace site (default 30 s). */
  siteTimeoutMs?: number;
  linkLimits?: Partial<LinkCheckLimits>;
  /** Topics read from the site at once (default 8). */
  topicConcurrency?: number;
  /** Time limit of the accessibility checks of one topic (default 30 s). */
  axeTimeoutMs?: number;
  /**
   * The Chromium that renders topics for the accessibility checks; null for none (the jsdom
   * fallback). Default: `CTPO_CHROMIUM`, else /usr/bin/chromium when installed.
   */
  chromium?: string | null;
  /** Pages of the browser checking topics at once (default 2). */
  a11yPages?: number;
  /** Also check AAA enhanced contrast, 7:1 (default: `CTPO_ENHANCED_CONTRAST=1`). */
  enhancedContrast?: boolean;
  /** Limits of reading one document (size, pages, time, memory); the defaults suit a real course. */
  documentLimits?: Partial<DocumentLimits>;
  /** How long a link's good answer is reused from an earlier run (default one day); 0: every link is asked again. */
  linkMaxAgeMs?: number;
  /**
   * Added to what judged the run's items in the verdict cache's digests (the engines' versions and
   * code are always in them): a different value is a new judge, so nothing earlier is reused.
   */
  judges?: string;
}
