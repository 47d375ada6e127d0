// Which axe-core rules run on an item, and in which language axe writes; and the compact shape in
// which both accessibility runners (browser-runner.ts, jsdom-runner.ts) report what axe found.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import axe from 'axe-core';
import type { Language } from '../i18n/languages.ts';
import type { IbmRuleResult, WcagCriterion } from './ibm-rules.ts';

/** How a run checks accessibility: in headless Chromium, or in jsdom when no browser is installed. */
export type A11yMode = 'browser' | 'jsdom';

/** One element axe named for a rule. */
export interface AxeNode {
  /** The element's HTML, on one line and shortened. */
  html: string;
  /** A CSS selector of the element in the page. */
  selector: string;
  /** For a "needs review" result: why axe could not decide, in axe's words. */
  why?: string;
}

/** One rule that failed, or that axe could not decide ("incomplete"), on one item. */
export interface AxeRuleResult {
  id: string;
  impact: string | null;
  /** axe's one-line help text, in the run's language where axe has it. */
  help: string;
  helpUrl: string;
  /** How many elements. */
  count: number;
  /** The first few of them. */
  nodes: AxeNode[];
  /** The page's key of every element of a failure, shared with the other engine's (browser only). */
  keys?: number[];
}

/** What a runner reports for one item. */
export interface AxeOutcome {
  violations: AxeRuleResult[];
  incomplete: AxeRuleResult[];
  /** Rules whose own code failed on this item (axe reports them as incomplete with an error). */
  errors: string[];
  /** The failures IBM's Equal Access engine found beside axe (browser only, ibm-rules.ts). */
  ibm?: IbmRuleResult[];
  /** Engines that failed on this item while the other's verdicts stand (`axe-core`, IBM_ENGINE). */
  engineErrors?: string[];
}

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

/**
 * Rules about the page around a topic, never run: a topic is shown inside Brightspace's own page,
 * which has the landmarks, the skip link and the page's main heading; a topic without them is right.
 */
export const PAGE_LEVEL_RULES: readonly string[] = [
  'bypass', 'region', 'page-has-heading-one', 'skip-link', 'landmark-one-main', 'landmark-banner-is-top-level',
  'landmark-complementary-is-top-level', 'landmark-contentinfo-is-top-level', 'landmark-main-is-top-level',
  'landmark-no-duplicate-banner', 'landmark-no-duplicate-contentinfo', 'landmark-no-duplicate-main', 'landmark-unique',
  'meta-viewport-large',
];

/**
 * Rules about a whole HTML document (its language, title, refresh and zoom): run on an HTML file
 * topic, which is its own document inside Brightspace's frame and is read out in its own language,
 * but not on a fragment (a description), whose document is the page CTPO wraps around it.
 */
export const DOCUMENT_RULES: readonly string[] = [
  'document-title', 'html-has-lang', 'html-lang-valid', 'html-xml-lang-mismatch', 'meta-refresh', 'meta-viewport',
];

/**
 * Rules never run for other reasons: captions are our own media.no-captions; frame-tested only asks
 * to test inside frames (embedded players and tools of other sites, not the author's content);
 * hidden-content, focus-order-semantics and css-orientation-lock are experimental rules that leave
 * a "needs review" on nearly every page; the deprecated rules have replacements that run.
 */
export const REPLACED_RULES: readonly string[] = [
  'video-caption', 'audio-caption', 'frame-tested', 'hidden-content', 'focus-order-semantics', 'css-orientation-lock',
  'duplicate-id', 'duplicate-id-active', 'aria-roledescription',
];

/**
 * Rules that need a rendering browser. In jsdom they cannot decide: there is no layout, no canvas
 * and no painting, so colours, sizes, positions and scrolling are unknown (contrast throws on most
 * pages, label-content-name-mismatch measures icon fonts on a canvas). Without a browser they are
 * not run, and the report says so.
 */
export const BROWSER_ONLY_RULES: readonly string[] = [
  'color-contrast', 'color-contrast-enhanced', 'link-in-text-block', 'target-size', 'scrollable-region-focusable',
  'label-content-name-mismatch', 'frame-focusable-content',
];

/** AAA enhanced contrast (7:1), run only when a team turns it on. */
export const ENHANCED_CONTRAST_RULE = 'color-contrast-enhanced';

export interface RuleSelection {
  mode: A11yMode;
  /** A whole HTML document (a file topic) rather than a fragment. */
  whole: boolean;
  enhancedContrast: boolean;
}

const TAGGED = axe.getRules(AXE_TAGS).map((rule) => rule.ruleId);

/** The axe rules run on one item. */
export function axeRulesFor(selection: RuleSelection): string[] {
  const left = new Set([...PAGE_LEVEL_RULES, ...REPLACED_RULES]);
  if (!selection.whole) DOCUMENT_RULES.forEach((rule) => left.add(rule));
  if (selection.mode === 'jsdom') BROWSER_ONLY_RULES.forEach((rule) => left.add(rule));
  const rules = TAGGED.filter((rule) => !left.has(rule));
  if (selection.enhancedContrast && selection.mode === 'browser') rules.push(ENHANCED_CONTRAST_RULE);
  return rules;
}

/** Rules a browser would run on a whole page that this mode does not: what the report names as not checked. */
export function rulesNotRun(mode: A11yMode, enhancedContrast: boolean): string[] {
  const full = axeRulesFor({ mode: 'browser', whole: true, enhancedContrast });
  const own = new Set(axeRulesFor({ mode, whole: true, enhancedContrast }));
  return full.filter((rule) => !own.has(rule));
}

export const AXE_VERSION: string = axe.version;

const require = createRequire(import.meta.url);

/** axe-core's own source (the minified build: half the parsing), injected into each page it checks. */
export const AXE_SOURCE: string = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// axe-core ships translations of its rule texts; these are the ones that match our languages.
const AXE_LOCALES: Partial<Record<Language, string>> = {
  da: 'da', de: 'de', 'es-ES': 'es', 'es-419': 'es', 'fr-CA': 'fr', 'fr-FR': 'fr', 'fr-ON': 'fr', ja: 'ja', ko: 'ko',
  nl: 'nl', 'pt-BR': 'pt_BR', sv: 'sv', 'zh-CN': 'zh_CN', 'zh-TW': 'zh_TW',
};

/** axe's locale object for a language, or undefined where axe speaks only English. */
export function axeLocaleOf(language: Language | undefined): object | undefined {
  const name = language === undefined ? undefined : AXE_LOCALES[language];
  if (name === undefined) return undefined;
  try {
    return JSON.parse(readFileSync(require.resolve(`axe-core/locales/${name}.json`), 'utf8')) as object;
  } catch {
    return undefined;
  }
}

/** axe-core's own words for a rule: its one-line help (a title) and its description (what to ensure). */
export interface AxeRuleText {
  help: string;
  description: string;
}

const RULE_TEXTS = new Map<string, Map<string, AxeRuleText>>();

function ruleTextsOf(language: Language | undefined): Map<string, AxeRuleText> {
  const key = (language === undefined ? undefined : AXE_LOCALES[language]) ?? 'en';
  let texts = RULE_TEXTS.get(key);
  if (texts === undefined) {
    texts = new Map(axe.getRules().map((rule) => [rule.ruleId, { help: rule.help, description: rule.description }]));
    const locale = key === 'en' ? undefined : (axeLocaleOf(language) as { rules?: Record<string, Partial<AxeRuleText>> } | undefined);
    // A rule the translation lacks (or gives only half of) keeps axe's English words for that half.
    for (const [rule, text] of Object.entries(locale?.rules ?? {})) {
      const english = texts.get(rule);
      if (english !== undefined) texts.set(rule, { help: text.help ?? english.help, description: text.description ?? english.description });
    }
    RULE_TEXTS.set(key, texts);
  }
  return texts;
}

/**
 * axe-core's help and description of a rule, in the language where axe has it (its locale files),
 * else in English; undefined for a rule axe does not know.
 */
export function axeRuleText(rule: string, language?: Language): AxeRuleText | undefined {
  return ruleTextsOf(language).get(rule);
}

const LEVEL_TAGS: Record<string, WcagCriterion['level']> = { wcag2a: 'A', wcag21a: 'A', wcag22a: 'A', wcag2aa: 'AA', wcag21aa: 'AA', wcag22aa: 'AA', wcag2aaa: 'AAA', wcag21aaa: 'AAA', wcag22aaa: 'AAA' };
const CRITERIA = new Map(
  axe.getRules().map((rule) => {
    const level = rule.tags.map((tag) => LEVEL_TAGS[tag]).find((found) => found !== undefined);
    const criteria = level === undefined ? [] : rule.tags.filter((tag) => /^wcag\d{3,}$/.test(tag)).map((tag) => ({ sc: `${tag[4]}.${tag[5]}.${tag.slice(6)}`, level }));
    return [rule.ruleId, criteria];
  }),
);

/** The WCAG success criteria an axe rule judges, from its tags; none for a best practice. */
export function wcagOfAxeRule(rule: string): WcagCriterion[] {
  return CRITERIA.get(rule) ?? [];
}

/** Elements named per rule and item. */
export const AXE_EXAMPLES = 3;

function shorten(html: string): string {
  const oneLine = html.replace(/\s+/g, ' ').trim();
  return oneLine.length > 160 ? `${oneLine.slice(0, 157)}...` : oneLine;
}

/** axe's target of an element as one selector (frames and shadow roots joined). */
function selectorOf(target: unknown): string {
  const flat = (value: unknown): string[] => (Array.isArray(value) ? value.flatMap(flat) : [String(value)]);
  return flat(target).join(' ');
}

function reasonOf(node: Pick<axe.NodeResult, 'any' | 'all' | 'none'>): string | undefined {
  const check = [...node.any, ...node.all, ...node.none].find((entry) => typeof entry.message === 'string' && entry.message !== '');
  return check?.message;
}

/** axe's result of one rule, or the slimmed copy a page sends back (its first elements and their count). */
type RuleResultIn = Pick<axe.Result, 'id' | 'help' | 'helpUrl'> & {
  impact?: string | null;
  nodes: Pick<axe.NodeResult, 'html' | 'target' | 'any' | 'all' | 'none'>[];
  count?: number;
  error?: unknown;
  keys?: number[];
};

function summarize(result: RuleResultIn, withReason: boolean): AxeRuleResult {
  return {
    id: result.id,
    impact: result.impact ?? null,
    help: result.help,
    helpUrl: result.helpUrl,
    count: result.count ?? result.nodes.length,
    ...(result.keys === undefined ? {} : { keys: result.keys }),
    nodes: result.nodes.slice(0, AXE_EXAMPLES).map((node) => {
      const why = withReason ? reasonOf(node) : undefined;
      return { html: shorten(node.html), selector: selectorOf(node.target), ...(why === undefined ? {} : { why }) };
    }),
  };
}

/** The part of axe's results a report uses: failures, open questions, and rules that broke. */
export function summarizeAxeResults(results: { violations: RuleResultIn[]; incomplete: RuleResultIn[] }): AxeOutcome {
  const errors = results.incomplete.filter((result) => result.error !== undefined).map((result) => result.id);
  const broken = new Set(errors);
  return {
    violations: results.violations.map((result) => summarize(result, false)),
    incomplete: results.incomplete.filter((result) => !broken.has(result.id) && (result.count ?? result.nodes.length) > 0).map((result) => summarize(result, true)),
    errors,
  };
}

/** The axe options of one run: only the chosen rules, details only for what is reported. */
export function axeRunOptions(rules: string[]): axe.RunOptions {
  return {
    runOnly: { type: 'rule', values: rules },
    resultTypes: ['violations', 'incomplete'],
    selectors: true,
    ancestry: false,
    xpath: false,
    iframes: false,
    // Only css-orientation-lock reads the style sheets themselves, and it does not run.
    preload: false,
    performanceTimer: false,
  };
}
