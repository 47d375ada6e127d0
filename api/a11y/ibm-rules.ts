// IBM's Equal Access engine (accessibility-checker-engine), the second engine beside axe-core in the
// browser (docs/accessibility-engines.md): its script, which WCAG checkpoints it judges, the rules
// turned off with the reason, and the compact shape in which the browser page reports what it found.
// runIbmInPage runs in the browser page, so this file is checked with the DOM's types even where
// the program that reaches it (the infrastructure's, through the check catalogue) has none.
/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

let source: string | undefined;

/**
 * The engine's own build for browsers (685 KB), injected into each page beside axe-core, never
 * fetched at run time; read on first use, so that what only names the engine does not load it.
 */
export function ibmSource(): string {
  source ??= readFileSync(require.resolve('accessibility-checker-engine/ace.js'), 'utf8');
  return source;
}

/** The engine's version, read on first use too: the report writers (in every API function) name its rules but never run it. */
export function ibmVersion(): string {
  return (JSON.parse(readFileSync(require.resolve('accessibility-checker-engine/package.json'), 'utf8')) as { version: string }).version;
}

/** The engine's name in reports. */
export const IBM_ENGINE = 'IBM Equal Access';

/**
 * IBM's WCAG 2.2 guideline: its rules filed under the success criteria they judge, each as a
 * requirement (VIOLATION) or advice (RECOMMENDATION). Only failures of requirements are reported:
 * the engine's "potential" and "manual" results, and its recommendations, would be a note on nearly
 * every page, and axe's "Needs review" already asks a person what no engine can decide.
 */
export const IBM_POLICY = 'WCAG_2_2';

/**
 * Rules never run, with the reason. The first group, like axe's PAGE_LEVEL_RULES, is about the page
 * around a topic: a topic is shown inside Brightspace's own page, which has the landmarks and skip
 * links. The others flag what a course page rightly holds (measured on the demo course, the ACT
 * corpus and the failure-technique fixtures, docs/accessibility-engines.md).
 */
export const IBM_OFF_RULES: Readonly<Record<string, string>> = {
  html_skipnav_exists: 'the skip link belongs to Brightspace\'s page around the topic',
  skip_main_exists: 'the main landmark belongs to Brightspace\'s page around the topic',
  skip_main_described: 'the main landmark belongs to Brightspace\'s page around the topic',
  aria_content_in_landmark: 'landmarks belong to Brightspace\'s page around the topic',
  frame_src_valid: 'an embedded frame is answered by a stand-in when its site is not loaded (page-resources.ts): a verdict about the stand-in',
  text_quoted_correctly: 'flags every quotation in running text that is not in <q>: plain quotation marks are right in course prose',
  text_whitespace_valid: 'flags spaces used inside words for letter-spacing; course text pasted from Word holds runs of spaces that screen readers read as one',
  blockquote_cite_exists: 'flags indented passages the author did not mark as quotations: a guess about intent, not a failure',
  list_markup_review: 'flags text that starts with a dash or a number as a list: a guess about intent, not a failure',
  table_summary_redundant: 'the summary attribute is obsolete in HTML and read by no current screen reader',
  style_viewport_resizable: 'flags font sizes in px (checked as zoom by axe\'s meta-viewport and by the browser, which zooms px text)',
  target_spacing_sufficient: 'axe\'s target-size measures the same criterion on the rendered page, and the two disagree on inline links',
  element_tabbable_unobscured: 'nothing is fixed over a topic inside Brightspace\'s frame; the engine\'s test of the viewport is about the whole page',
  meta_refresh_delay: 'axe\'s meta-refresh judges the same and is run on whole documents only',
  text_contrast_sufficient: 'flags text whose shadow makes it legible (a passing example of ACT rule afw4f7); axe\'s color-contrast judges the same criterion on the rendered page',
  label_name_visible:
    "asks a control's name to hold its whole visible text, so a hint shown after the label (\"Search by date (YYYY-MM-DD)\", a passing example of ACT rule 2ee8b8) is flagged; axe's label-content-name-mismatch judges the same criterion, 2.5.3, and found every failing case this rule found",
  input_autocomplete_valid: 'flags valid tokens such as "section-primary shipping street-address" on a text field (a passing example of ACT rule 73f2c2); axe\'s autocomplete-valid judges the same criterion',
};

/**
 * Rules about a whole HTML document (its language and title), run on an HTML file topic but not on a
 * fragment, whose document is the page CTPO wraps around it (as axe's DOCUMENT_RULES).
 */
export const IBM_DOCUMENT_RULES: readonly string[] = ['page_title_exists', 'page_title_valid', 'html_lang_exists', 'html_lang_valid', 'meta_viewport_zoomable'];

/** The IBM rules turned off on an item. */
export function ibmRulesOff(whole: boolean): string[] {
  return [...Object.keys(IBM_OFF_RULES), ...(whole ? [] : IBM_DOCUMENT_RULES)];
}

/** One failure criterion of WCAG a rule's result falls under. */
export interface WcagCriterion {
  /** The success criterion, e.g. "1.1.1". */
  sc: string;
  level: 'A' | 'AA' | 'AAA';
}

/** One IBM rule that failed on an item: its elements, and what IBM says of them. */
export interface IbmRuleResult {
  id: string;
  /** The success criteria the rule is filed under, with their levels. */
  wcag: WcagCriterion[];
  /** IBM's priority of the rule, 1 (most) to 4. */
  toolkitLevel: number;
  /** IBM's reason for the first element, in English (the engine has no other language). */
  message: string;
  /** IBM's page on the rule. */
  helpUrl: string;
  count: number;
  /** The first few elements: their HTML, a CSS selector, and the page's key of each element. */
  nodes: { html: string; selector: string }[];
  /** The page's key of every element (shared with axe's, so both engines' verdicts on one element meet). */
  keys: number[];
}

const ace = (): { Checker: new () => { engine: { getMessage: (rule: string, reason: string) => string } } } =>
  require('accessibility-checker-engine/ace-node') as ReturnType<typeof ace>;

let ruleTitles: Map<string, string> | undefined;

/**
 * IBM's one-line title of a rule (its "group" message), in English: the engine ships no other
 * language. Loaded once, on the first report that needs it. Undefined for a rule it does not know.
 */
export function ibmRuleTitle(rule: string): string | undefined {
  if (ruleTitles === undefined) {
    ruleTitles = new Map();
    const engine = new (ace().Checker)().engine;
    for (const id of Object.keys((engine as unknown as { ruleMap: Record<string, unknown> }).ruleMap)) {
      const title = engine.getMessage(id, 'group');
      if (typeof title === 'string' && title !== '' && title !== 'group') ruleTitles.set(id, title);
    }
  }
  return ruleTitles.get(rule);
}

/** Elements named per rule with their HTML; beyond them only their keys are sent back. */
const IBM_NODES = 50;

/** What the browser page sends back: failures of requirements, or why the engine could not run. */
export type IbmPageResult = { results: IbmRuleResult[] } | { error: string };

/**
 * Runs IBM's engine on the document of the page it is evaluated in (with page.evaluate: it must not
 * use anything outside itself). Elements get the keys axe's elements got on the same item (the
 * page's `__ctpoKeys`), new ones after. IBM's checker is kept on the window for the next item written
 * into the same document.
 */
export async function runIbmInPage({ policy, disabled, off, nodesPerRule }: { policy: string; disabled: string[]; off: string[]; nodesPerRule: number }): Promise<IbmPageResult> {
  type Issue = { ruleId: string; reasonId?: string | number; value: [string, string]; node: Node; message: string; snippet: string };
  type Checkpoint = { num: string; wcagLevel: string; rules?: { id: string; level: string; toolkitLevel: string; reasonCodes?: string[] }[] };
  type Checker = {
    check: (node: Document, guidelines: string[]) => Promise<{ results: Issue[] }>;
    getGuidelines: () => { id: string; checkpoints: Checkpoint[] }[];
    addGuideline: (guideline: { id: string; checkpoints: Checkpoint[] }) => void;
    engine: { getHelp: (rule: string, reason: string | number) => string; getRule: (rule: string) => { dependencies?: string[] } | undefined };
  };
  const page = window as unknown as { ace?: { Checker: new () => Checker }; __ctpoIbm?: Checker; __ctpoKeys?: Map<Element, number> };
  try {
    if (page.ace === undefined) throw new Error('the engine is not loaded');
    // Rules whose results are never reported do not run: IBM's guideline is copied with its
    // requirements only, less the rules turned off, plus the rules they depend on. (The engine's
    // disableRule turns off every rule, whatever its argument.)
    const guideline = 'CTPO';
    let checker = page.__ctpoIbm;
    if (checker === undefined) {
      checker = new page.ace.Checker();
      const base = checker.getGuidelines().find((entry) => entry.id === policy);
      if (base === undefined) throw new Error(`IBM's engine has no guideline ${policy}`);
      const kept = (rule: { id: string; level: string }) => rule.level === 'VIOLATION' && !disabled.includes(rule.id);
      const needed = new Set<string>();
      for (const checkpoint of base.checkpoints) {
        for (const rule of checkpoint.rules ?? []) if (kept(rule)) for (const dependency of checker.engine.getRule(rule.id)?.dependencies ?? []) needed.add(dependency);
      }
      const own = checker;
      own.addGuideline({ ...base, id: guideline, checkpoints: base.checkpoints.map((checkpoint) => ({ ...checkpoint, rules: (checkpoint.rules ?? []).filter((rule) => kept(rule) || needed.has(rule.id)) })) });
      page.__ctpoIbm = own;
    }
    const keys = (page.__ctpoKeys ??= new Map());
    const keyOf = (node: Node): number => {
      const element = node as Element;
      let key = keys.get(element);
      if (key === undefined) keys.set(element, (key = keys.size));
      return key;
    };
    const selectorOf = (node: Node): string => {
      const parts: string[] = [];
      for (let element: Element | null = node.nodeType === 1 ? (node as Element) : node.parentElement; element !== null && element !== document.documentElement; element = element.parentElement) {
        if (element.id !== '' && /^[A-Za-z][\w-]*$/.test(element.id)) {
          parts.unshift(`#${element.id}`);
          break;
        }
        const siblings = element.parentElement === null ? [] : [...element.parentElement.children].filter((other) => other.tagName === element!.tagName);
        const name = element.tagName.toLowerCase();
        parts.unshift(siblings.length > 1 ? `${name}:nth-of-type(${siblings.indexOf(element) + 1})` : name);
      }
      return parts.join(' > ') || 'html';
    };
    // Which success criteria, levels and priority each rule is filed under, as requirements.
    const filed = new Map<string, { wcag: { sc: string; level: string }[]; toolkitLevel: number }>();
    for (const checkpoint of checker.getGuidelines().find((entry) => entry.id === guideline)?.checkpoints ?? []) {
      for (const rule of checkpoint.rules ?? []) {
        if (rule.level !== 'VIOLATION' || disabled.includes(rule.id)) continue;
        const entry = filed.get(rule.id) ?? { wcag: [], toolkitLevel: Number(rule.toolkitLevel) };
        entry.wcag.push({ sc: checkpoint.num, level: checkpoint.wcagLevel });
        entry.toolkitLevel = Math.min(entry.toolkitLevel, Number(rule.toolkitLevel));
        filed.set(rule.id, entry);
      }
    }
    const report = await checker.check(document, [guideline]);
    const byRule = new Map<string, IbmRuleResult>();
    for (const issue of report.results) {
      if (issue.value[0] !== 'VIOLATION' || issue.value[1] !== 'FAIL' || off.includes(issue.ruleId)) continue;
      // IBM walks into same-origin frames; the page is judged, not the documents it embeds (axe runs
      // with frames off, and a frame's own content is checked as a page of its own, or listed).
      if ((issue.node.ownerDocument ?? issue.node) !== document) continue;
      const rule = filed.get(issue.ruleId);
      if (rule === undefined) continue;
      let result = byRule.get(issue.ruleId);
      if (result === undefined) {
        result = {
          id: issue.ruleId,
          wcag: rule.wcag as WcagCriterion[],
          toolkitLevel: rule.toolkitLevel,
          message: issue.message,
          helpUrl: checker.engine.getHelp(issue.ruleId, issue.reasonId ?? '').split('#')[0] ?? '',
          count: 0,
          nodes: [],
          keys: [],
        };
        byRule.set(issue.ruleId, result);
      }
      result.count++;
      result.keys.push(keyOf(issue.node));
      if (result.nodes.length < nodesPerRule) result.nodes.push({ html: issue.snippet, selector: selectorOf(issue.node) });
    }
    return { results: [...byRule.values()] };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The arguments of runIbmInPage for an item. */
export function ibmRunArguments(whole: boolean): Parameters<typeof runIbmInPage>[0] {
  return { policy: IBM_POLICY, disabled: Object.keys(IBM_OFF_RULES), off: ibmRulesOff(whole), nodesPerRule: IBM_NODES };
}

function shorten(html: string): string {
  const oneLine = html.replace(/\s+/g, ' ').trim();
  return oneLine.length > 160 ? `${oneLine.slice(0, 157)}...` : oneLine;
}

/** IBM's results as a runner reports them: elements' HTML on one line and shortened. */
export function summarizeIbmResults(results: IbmRuleResult[]): IbmRuleResult[] {
  return results.map((result) => ({ ...result, nodes: result.nodes.map((node) => ({ ...node, html: shorten(node.html) })) }));
}
