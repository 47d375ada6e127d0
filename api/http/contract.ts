// The QA API's wire contract, defined once (docs/design.md, "The QA API contract"): the API validates
// every request with these schemas and types its answers by them; the app imports this module for
// its types and parses every answer with it. No Node and no message catalogue here, so the app's
// bundle can load it; zod/mini rather than zod, for that bundle's size.
//
// Requests are held to the run's input rules (engine/run-input-rules.ts); each failed check names
// its rule, and the API words it from its catalogue. Answers are read the tolerant way: a reader
// keeps what has the expected shape, an optional part that has not is read as absent, and a list
// keeps the entries it can read, so a newer or older server never blanks the app.
import * as z from 'zod/mini';
import { COURSE_SCOPES } from '../brightspace/course-scopes.ts';
import { RUN_PHASES } from '../engine/progress.ts';
import { LANGUAGES } from '../i18n/languages.ts';
import { JOB_STATUSES } from '../jobs/job-status.ts';
import { orgUnitOf } from '../brightspace/item-urls.ts';
import {
  CONTROL_CHARACTER,
  INPUT_LIMITS,
  clientLabelRule,
  courseScopesRule,
  excludedModuleIdsRule,
  idTextRule,
  languageRule,
  moduleChoiceRule,
  moduleTitlesRule,
  orgUnitIdRule,
  passwordRule,
  runSelectionIssue,
  siteUrlTextRule,
  userNameRule,
} from '../engine/run-input-rules.ts';

// The words of the domain the wire carries, for readers of the wire (their owners define them).
export { COURSE_SCOPES, JOB_STATUSES, LANGUAGES, RUN_PHASES };
// The limits of a run's input, and the one reader of the org unit a Brightspace address names (the
// app fills the Org Unit ID from a pasted course address with it, as the engine reads links).
export { INPUT_LIMITS, orgUnitOf };
export type { CourseScope } from '../brightspace/course-scopes.ts';
export type { RunPhase } from '../engine/progress.ts';
export type { JobStatus } from '../jobs/job-status.ts';
// The protocol routes' shapes live beside their routes; the app reaches every wire shape here.
export * from './protocol-contract.ts';

export const MAX_BODY_BYTES = 64 * 1024;

export const HISTORY_LIMITS = {
  /** Runs per page of GET /api/jobs, and the default. */
  pageSize: 100,
  defaultPageSize: 20,
  reason: 500,
  /** Dismissed findings one user may keep for one course (api/jobs/types.ts DISMISSAL_LIMITS says why). */
  dismissalsPerCourse: 1000,
  /** Courses one user may keep dismissed findings for. */
  coursesWithDismissals: 200,
  jobId: 256,
  cursor: 600,
} as const;

// --- Requests ------------------------------------------------------------------------------------
// A field absent or null is the same; optional fields sent as null are as good as absent.

/** POST /api/toc */
export const tocRequest = z.object({
  ORG_UNIT_ID: orgUnitIdRule,
  CLIENT_URL: siteUrlTextRule,
  USER_NAME: userNameRule,
  PASSWORD: passwordRule,
  /** The language of error messages: one of our 23 tags (else Accept-Language, else English). */
  LANGUAGE: z.nullish(languageRule),
});
export type TocRequest = z.input<typeof tocRequest>;

/**
 * POST /api/run-tests: the run's report and every message about it are in LANGUAGE. A module in
 * MODULES is tested with everything nested in it, but for the sub-modules in EXCLUDE_MODULES (each
 * with everything nested in it): "Unit 1 without 1.2". MODULES may be empty when SCOPES is not (a
 * run of course-wide items only).
 */
export const runTestsRequest = z.extend(tocRequest, {
  CLIENT_NAME: clientLabelRule,
  MODULES: moduleChoiceRule,
  /** Sub-modules of the chosen modules to leave out; absent: none. */
  EXCLUDE_MODULES: z.nullish(excludedModuleIdsRule),
  /** Course-wide items to read besides the modules; absent: the modules only. */
  SCOPES: z.nullish(courseScopesRule),
  /** The chosen and left-out modules' titles as the user saw them (id -> title), for their run history. */
  MODULE_TITLES: z.nullish(moduleTitlesRule),
  /** "Check everything again": true ignores the verdicts kept from earlier runs of the course; absent: false. */
  FULL: z.nullish(z.boolean()),
}).check(
  z.superRefine(
    (request, context) => {
      const issue = runSelectionIssue({ modules: request.MODULES, excludeModules: request.EXCLUDE_MODULES, scopes: request.SCOPES });
      if (issue !== undefined) context.addIssue({ code: 'custom', message: issue.rule, path: [issue.field === 'modules' ? 'MODULES' : 'EXCLUDE_MODULES'], input: request });
    },
    // Also when another field is at fault, so that every field at fault is named at once.
    { when: () => true },
  ),
);
export type RunTestsRequest = z.input<typeof runTestsRequest>;

/** The job id of GET /api/job-status/{jobArn}, once decoded from the address. */
export const jobIdParameter = z.string().check(
  z.refine((id) => id.trim() !== '', 'required'),
  z.maxLength(HISTORY_LIMITS.jobId, 'too-long'),
  z.refine((id) => !CONTROL_CHARACTER.test(id), 'control-character'),
);

/** GET /api/jobs?limit=&cursor= (query values are text; an empty cursor is none). */
export const jobsQuery = z.object({
  limit: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d{1,4}$/, 'not-id')),
      z.pipe(
        z.transform(Number),
        z.int().check(z.minimum(1, 'not-id'), z.maximum(HISTORY_LIMITS.pageSize, 'too-long')),
      ),
    ),
  ),
  /** The nextCursor of the page before, sent back as it came. */
  cursor: z.optional(z.string().check(z.maxLength(HISTORY_LIMITS.cursor, 'too-long'), z.regex(/^[A-Za-z0-9_-]*$/, 'unknown'))),
});
export type JobsQuery = z.input<typeof jobsQuery>;

/** A finding's fingerprint, as the report gives it. */
const fingerprint = z.string('unknown').check(z.regex(/^[0-9a-f]{20}$/, 'unknown'));

/** GET /api/dismissals?siteUrl=&orgUnitId= : a course, as the history knows it. */
export const courseQuery = z.object({ siteUrl: siteUrlTextRule, orgUnitId: idTextRule });
export type CourseQuery = z.input<typeof courseQuery>;

/** DELETE /api/dismissals?siteUrl=&orgUnitId=&fingerprint= */
export const restoreQuery = z.extend(courseQuery, { fingerprint });

/** PUT /api/dismissals (answered with the dismissal as kept). */
export const dismissalRequest = z.extend(courseQuery, {
  fingerprint,
  /** Why it was dismissed; blank is none. Line breaks are fine, other control characters are not. */
  reason: z.nullish(
    z.string('unknown').check(
      z.trim(),
      z.maxLength(HISTORY_LIMITS.reason, 'too-long'),
      z.refine((reason) => !CONTROL_CHARACTER.test(reason.replace(/\r?\n/g, ' ')), 'control-character'),
    ),
  ),
});
export type DismissalRequest = z.input<typeof dismissalRequest>;

// --- Answers -------------------------------------------------------------------------------------

/** Text with something in it: blank text reads as none. */
const someText = z.string().check(z.refine((text) => text.trim() !== ''));
const nonEmptyText = z.string().check(z.minLength(1));
/** A count: a whole number from 0. */
const count = z.int().check(z.nonnegative());

// The tolerant reader's two tools, for every answer the app reads (the report's JSON twin included).

/** An optional part, kept only when it has the expected shape. */
export function kept<T extends z.ZodMiniType>(schema: T) {
  return z.catch(z.optional(schema), undefined);
}

/** A list that keeps the entries it can read; not a list at all is a malformed answer. */
export function listOf<T extends z.ZodMiniType>(entry: T) {
  return z.pipe(
    z.array(z.unknown()),
    z.transform((entries) =>
      entries.flatMap((value) => {
        const read = entry.safeParse(value);
        return read.success ? [read.data as z.output<T>] : [];
      }),
    ),
  );
}

/** A run's progress; the count of the phase is never past its total. A phase this app does not know is left out. */
export const jobProgress = z.pipe(
  z.object({
    done: z.number().check(z.nonnegative()),
    total: z.number().check(z.positive()),
    phase: kept(z.enum(RUN_PHASES)),
  }),
  z.transform((progress) => ({ ...progress, done: Math.min(progress.done, progress.total) })),
);

/** A module (its id and title) or a course-wide part of the course a run read (report/coverage.ts). */
const coveredPlace = z.union([z.object({ module: count, title: z.string(), parent: z.optional(count) }), z.object({ scope: z.enum(COURSE_SCOPES) })]);

/** What a finished run found (report/summary.ts); counts a server before them did not send read as 0. */
export const jobSummary = z.object({
  findings: z.object({ error: count, warning: count, info: count, review: z.catch(count, 0) }),
  topics: count,
  scanned: count,
  notScanned: count,
  documents: z.catch(count, 0),
  links: count,
  /** Against the caller's previous successful run of the same course; absent when there was none. */
  comparison: kept(
    z.object({
      new: count,
      open: kept(count),
      fixed: count,
      dismissed: count,
      /** When the run compared with ran. */
      previous: kept(z.object({ startedAt: z.string(), finishedAt: z.string() })),
      /** What the comparison covered: everything this run read, or these places (and `more` besides). */
      comparedOn: kept(z.object({ all: z.boolean(), places: listOf(coveredPlace), more: count })),
    }),
  ),
  /** The run scored by its protocol (api/protocol/). */
  protocol: kept(z.object({ name: z.string(), version: count, score: z.nullable(count), items: z.object({ pass: count, fail: count, person: count, na: count }) })),
});

/**
 * GET /api/job-status/{jobArn}. `status` is one of JOB_STATUSES; a reader shows one it does not
 * know as it came rather than fail.
 */
export const jobStatusAnswer = z.object({
  status: someText,
  /** Once it SUCCEEDED: the report is at outputUrl + filename + '.html' (and '.json', '.csv'). */
  outputUrl: kept(nonEmptyText),
  progress: kept(jobProgress),
  summary: kept(jobSummary),
  startedAt: kept(z.string()),
  /** When it ended (SUCCEEDED or FAILED). */
  finishedAt: kept(z.string()),
  updatedAt: kept(z.string()),
  /** Why it FAILED. */
  reason: kept(someText),
  /** Whose course it tests, so that a monitor names it, also after a reload: the client label, the org unit, and the course's name once the run has read it. */
  client: kept(z.string()),
  orgUnitId: kept(count),
  courseName: kept(someText),
});
export type JobStatusAnswer = z.output<typeof jobStatusAnswer>;

/** One run in GET /api/jobs: what it was asked to test, where it is, what it found. No credential. */
export const jobListItem = z.object({
  taskArn: someText,
  filename: z.string(),
  status: someText,
  client: z.string(),
  siteUrl: someText,
  orgUnitId: count,
  courseName: kept(someText),
  modules: z.array(count),
  /** Sub-modules of those modules it left out (run-tests EXCLUDE_MODULES). */
  excludeModules: kept(listOf(count)),
  /** The titles of its modules and left-out ones as its owner saw them (id -> title), where known. */
  moduleTitles: kept(z.record(z.string(), z.string())),
  scopes: kept(listOf(z.string())),
  language: kept(z.string()),
  /** The Brightspace user name it signed in with (shown to its owner only; never the password). */
  userName: kept(someText),
  createdAt: someText,
  startedAt: kept(someText),
  finishedAt: kept(someText),
  progress: kept(jobProgress),
  summary: kept(jobSummary),
  /** Once it SUCCEEDED: the report is at outputUrl + filename + '.html' (and '.json', '.csv'). */
  outputUrl: kept(someText),
  /** Why it FAILED. */
  reason: kept(someText),
  /** Who marked it ready for launch, and when (/api/protocols/runs/). */
  readyForLaunch: kept(z.object({ by: someText, at: someText })),
});
export type JobListItem = z.output<typeof jobListItem>;

/** GET /api/jobs: the caller's runs, newest first; `nextCursor` (absent on the last page) asks for the next. */
export const jobsAnswer = z.object({ jobs: listOf(jobListItem), nextCursor: kept(someText) });
export type JobsAnswer = z.output<typeof jobsAnswer>;

/** POST /api/run-tests: the message to show, and the job to follow (a reader without taskArn follows none). */
export const runTestsAnswer = z.object({ message: z.catch(z.string(), ''), taskArn: kept(nonEmptyText), filename: kept(z.string()) });
export type RunTestsAnswer = z.output<typeof runTestsAnswer>;

/** A finding the caller dismissed for a course: who, when and why. */
export const dismissalItem = z.object({ fingerprint: z.string(), by: z.string(), at: z.string(), reason: kept(nonEmptyText) });
export type DismissalItem = z.output<typeof dismissalItem>;

/** GET /api/dismissals */
export const dismissalsAnswer = z.object({ dismissals: listOf(dismissalItem) });
export type DismissalsAnswer = z.output<typeof dismissalsAnswer>;

/** DELETE /api/dismissals: `restored` is false when the finding was not dismissed (nothing changed). */
export const restoreAnswer = z.object({ fingerprint: z.string(), restored: z.boolean() });
export type RestoreAnswer = z.output<typeof restoreAnswer>;

/** A module of the POST /api/toc answer, as far as the app reads it (the answer is Brightspace's own shape). */
export interface TocModuleAnswer {
  ModuleId?: number | string | undefined;
  Title?: string | undefined;
  Modules?: TocModuleAnswer[] | undefined;
  Topics?: unknown[] | undefined;
}
const tocModule: z.ZodMiniType<TocModuleAnswer> = z.object({
  ModuleId: kept(z.union([z.number(), z.string()])),
  Title: kept(z.string()),
  get Modules() {
    return kept(listOf(tocModule));
  },
  /** Only counted: a topic is any object. */
  Topics: kept(listOf(z.looseObject({}))),
});

/** POST /api/toc */
export const tocAnswer = z.object({ Modules: kept(listOf(tocModule)) });
export type TocAnswer = z.output<typeof tocAnswer>;

/** Every error answer: a message for a person, in the caller's language, and a stable code. */
export const errorAnswer = z.object({ message: kept(someText), code: kept(z.string()) });
export type ErrorAnswer = z.output<typeof errorAnswer>;
