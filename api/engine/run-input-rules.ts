// The one set of field rules and limits of a run's input. The API's wire schema (api/http/contract.ts),
// the engine (run-input.ts) and the command line (scripts/ctpo.ts) all check with these schemas.
// Nothing here imports Node or a message catalogue, so the app can load it with the wire contract;
// a broken rule comes out as a BrokenRule, and each caller words it in its own messages.
import * as z from 'zod/mini';
import { COURSE_SCOPES } from '../brightspace/course-scopes.ts';
import { languageOf, type Language } from '../i18n/languages.ts';

// The API's values: they are what users have always met, and nothing legitimate comes near them.
export const INPUT_LIMITS = {
  userName: 256,
  password: 1024,
  siteUrl: 2048,
  clientLabel: 100,
  modules: 2000,
  /** Titles of a run's modules kept for its owner's history, and the length of each. */
  moduleTitles: 100,
  moduleTitle: 200,
  /** A list a person picked: each course-wide item at most twice. */
  scopes: COURSE_SCOPES.length * 2,
} as const;

/** What a value did wrong; `max` with too-long and too-many, `codePoint` with the character rules. */
export type RuleName =
  | 'required'
  | 'not-text'
  | 'empty'
  | 'too-long'
  | 'control-character'
  | 'hidden-character'
  | 'not-id'
  | 'not-list'
  | 'too-many'
  | 'not-ids'
  | 'also-chosen'
  | 'unknown';

export interface BrokenRule {
  rule: RuleName;
  max?: number;
  codePoint?: string;
}

// Every check below names its rule as the issue's message: a code for the callers, never a text for
// a person. The bound and the character come from the issue itself.
const RULE_NAMES: readonly string[] = [
  'required', 'not-text', 'empty', 'too-long', 'control-character', 'hidden-character', 'not-id', 'not-list', 'too-many', 'not-ids', 'also-chosen', 'unknown',
] satisfies RuleName[];

/** The rule a zod issue of these schemas reports. */
export function brokenRuleOf(issue: z.core.$ZodIssue): BrokenRule {
  const rule = (RULE_NAMES.includes(issue.message) ? issue.message : 'unknown') as RuleName;
  if (issue.code === 'too_big') return { rule, max: Number(issue.maximum) };
  const codePoint = issue.code === 'custom' ? (issue.params as { codePoint?: unknown } | undefined)?.codePoint : undefined;
  return typeof codePoint === 'string' ? { rule, codePoint } : { rule };
}

/** The rule the value breaks, undefined when it keeps them all: its own before its entries', the first of those. */
export function firstBrokenRule(schema: z.ZodMiniType, value: unknown): BrokenRule | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  return brokenRuleOf(result.error.issues.reduce((chosen, issue) => (issue.path.length < chosen.path.length ? issue : chosen)));
}

const absent = (value: unknown) => value === undefined || value === null;
const requiredOr = (rule: RuleName) => (issue: { input?: unknown }) => (absent(issue.input) ? 'required' : rule);

// C0 and C1 control characters: never part of a name, a label or a user name.
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

// Characters that show nothing, or turn the reading direction of what follows ("Trojan Source"): in
// a label they make the report and its file name say something other than what a person sees.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u2028\u2029]/gu;
// Joiners that some scripts and emoji need, allowed between two visible characters; variation
// selectors, allowed right after one (they pick its form). Never at the start, nor beside another
// invisible character.
const JOINERS = /^[\u200c\u200d]$/u;
const SELECTORS = /^[\ufe00-\ufe0f\u180b-\u180d\u180f\u{e0100}-\u{e01ef}]$/u;

const codePointOf = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The first invisible or direction-changing character of a text, as U+XXXX; undefined when none. */
export function hiddenCharacterIn(text: string): string | undefined {
  for (const match of text.matchAll(INVISIBLE)) {
    const character = match[0];
    const at = match.index;
    const before = text.slice(0, at).at(-1);
    const after = text[at + character.length];
    const visible = (neighbour: string | undefined) => neighbour !== undefined && /\S/u.test(neighbour) && !/[\p{Default_Ignorable_Code_Point}]/u.test(neighbour);
    if (JOINERS.test(character) && visible(before) && visible(after)) continue;
    if (SELECTORS.test(character) && visible(before)) continue;
    return codePointOf(character);
  }
  return undefined;
}

/** A text a person types and others read: no control character, nothing invisible. */
const shownText = z.superRefine<string>((text, context) => {
  const control = CONTROL_CHARACTER.exec(text)?.[0];
  if (control !== undefined) {
    context.addIssue({ code: 'custom', message: 'control-character', params: { codePoint: codePointOf(control) }, input: text });
    return;
  }
  const hidden = hiddenCharacterIn(text);
  if (hidden !== undefined) context.addIssue({ code: 'custom', message: 'hidden-character', params: { codePoint: hidden }, input: text });
});

/** A name or label: trimmed, not blank, within `max`, and shown as typed. */
function nameText(max: number) {
  return z.string({ error: requiredOr('not-text') }).check(z.trim(), z.minLength(1, 'empty'), z.maxLength(max, 'too-long'), shownText);
}

/** The Brightspace user name, trimmed. */
export const userNameRule = nameText(INPUT_LIMITS.userName);

/** The Brightspace password, exactly as typed: spaces at either end can be part of it. */
export const passwordRule = z.string({ error: requiredOr('not-text') }).check(
  z.refine((password) => password.trim() !== '', 'empty'),
  z.maxLength(INPUT_LIMITS.password, 'too-long'),
);

/** The client label shown on the report, trimmed. */
export const clientLabelRule = nameText(INPUT_LIMITS.clientLabel);

/** The site's address as text, before the address guard sees it; blank is as good as absent. */
export const siteUrlTextRule = z.string({ error: requiredOr('not-text') }).check(
  z.refine((url) => url.trim() !== '', 'required'),
  z.maxLength(INPUT_LIMITS.siteUrl, 'too-long'),
);

/** A Brightspace id: a whole number greater than 0. */
export const positiveIdRule = z.int({ error: requiredOr('not-id') }).check(z.positive('not-id'));

/** An id as a person or a query string sends it: a number, or its digits as text (no sign, no exponent). */
export const idTextRule = z.pipe(
  z.pipe(
    z.union([z.number(), z.string()], { error: requiredOr('not-id') }),
    z.transform((value, context) => {
      const text = typeof value === 'string' ? value.trim() : undefined;
      if (text === '') context.issues.push({ code: 'custom', message: 'required', input: value });
      else if (text !== undefined && !/^\d{1,15}$/.test(text)) context.issues.push({ code: 'custom', message: 'not-id', input: value });
      return text === undefined ? value : Number(text);
    }),
  ),
  positiveIdRule,
);

/** The org unit of the course, sent as a number or as its digits. */
export const orgUnitIdRule = idTextRule;

/** A list of module ids: at most the limit, each an id; the same id once, in the order sent. */
function moduleIdList(min: number) {
  return z.pipe(
    z.array(z.unknown(), { error: requiredOr('not-list') }).check(z.minLength(min, { error: 'empty', abort: true }), z.maxLength(INPUT_LIMITS.modules, { error: 'too-many', abort: true })),
    z.pipe(
      z.array(z.int('not-ids').check(z.positive('not-ids'))),
      z.transform((ids) => [...new Set(ids)]),
    ),
  );
}

/** The modules to test, at least one: each with everything nested in it. */
export const moduleIdsRule = moduleIdList(1);

/**
 * The modules a run chose, each with everything nested in it; none is fine when the run reads
 * course-wide items (runSelectionIssue says when it is not).
 */
export const moduleChoiceRule = moduleIdList(0);

/**
 * Modules nested in a chosen module to leave out, each with everything nested in it: "this module
 * without these sub-modules". That each is inside a chosen module only the course's table of
 * contents can tell (brightspace/toc.ts selectModules); here, only that none is also chosen.
 */
export const excludedModuleIdsRule = moduleIdList(0);

/**
 * The titles of a run's modules as the person saw them when choosing (id -> title), kept with the
 * run so that its owner's history can name what it covered; never used to find a module. Only a
 * label, so it never refuses a run: entries that are not an id and a text are left out, a title
 * loses control and invisible characters and is cut at the limit, and at most the limit are kept.
 */
export const moduleTitlesRule = z.pipe(
  z.record(z.string(), z.unknown(), 'not-list'),
  z.transform((entries) => {
    const titles: Record<string, string> = {};
    for (const [id, value] of Object.entries(entries)) {
      if (Object.keys(titles).length >= INPUT_LIMITS.moduleTitles) break;
      if (!/^\d{1,15}$/.test(id) || typeof value !== 'string') continue;
      const title = [...value.replace(new RegExp(CONTROL_CHARACTER.source, 'g'), ' ').replace(INVISIBLE, '').replace(/\s+/g, ' ').trim()]
        .slice(0, INPUT_LIMITS.moduleTitle)
        .join('');
      if (title !== '') titles[id] = title;
    }
    return titles;
  }),
);

/** The parts of a run's choice the cross-field rule reads, as sent (not yet checked). */
export interface RunSelection {
  modules: unknown;
  excludeModules?: unknown;
  scopes?: unknown;
}

/**
 * The rule a run's whole choice breaks, with the field at fault: something to test (a module or a
 * course-wide item), and no module both chosen and left out. Fields that break their own rule are
 * left to it.
 */
export function runSelectionIssue(selection: RunSelection): { field: 'modules' | 'excludeModules'; rule: RuleName } | undefined {
  const { modules, excludeModules, scopes } = selection;
  if (Array.isArray(modules) && modules.length === 0 && !(Array.isArray(scopes) && scopes.length > 0)) return { field: 'modules', rule: 'empty' };
  if (Array.isArray(modules) && Array.isArray(excludeModules) && excludeModules.some((id) => modules.includes(id))) return { field: 'excludeModules', rule: 'also-chosen' };
  return undefined;
}

/** The course-wide items to read besides the modules; the same item once, in the order sent. */
export const courseScopesRule = z.pipe(
  z.array(z.enum(COURSE_SCOPES, 'unknown'), 'unknown').check(z.maxLength(INPUT_LIMITS.scopes, 'unknown')),
  z.transform((scopes) => [...new Set(scopes)]),
);

/** The language of the report and of every message: one of our 23 tags, in any letter case. */
export const languageRule = z.pipe(
  z.string('unknown'),
  z.transform((tag, context) => {
    const language = languageOf(tag);
    if (language === undefined) context.issues.push({ code: 'custom', message: 'unknown', input: tag });
    return language as Language;
  }),
);
