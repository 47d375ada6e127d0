// POST /api/run-tests, with the wire contract: starts a run.
import { apiRequest } from '@/lib/api-client';
import type { LocaleTag } from '@/lib/i18n/locale';
import type { CourseFields } from '@/features/course-test/course-fields';
import { runTestsAnswer, type CourseScope, type RunTestsAnswer, type RunTestsRequest } from '@contract';

/** The server's message, and the job to follow when it named one. */
export type TestRunStarted = RunTestsAnswer;

/** The modules a run tests: each with what is nested in it, but for the sub-modules `excluded`. */
export interface ModuleSelection {
  modules: readonly string[];
  excluded: readonly string[];
  /** Titles as the user saw them (id -> title), for their run history. */
  titles: Readonly<Record<string, string>>;
}

/** How the run checks: `full` ignores the verdicts kept from earlier runs and checks every item now. */
export interface RunChoices {
  full: boolean;
}

/**
 * POST /api/run-tests: starts the job over the chosen modules and course-wide items; its report and
 * every message about it are in `language`.
 */
export async function startTestRun(
  fields: CourseFields,
  selection: ModuleSelection,
  scopes: readonly CourseScope[],
  language: LocaleTag,
  choices: RunChoices = { full: false },
): Promise<TestRunStarted> {
  const request = {
    USER_NAME: fields.userName.trim(),
    PASSWORD: fields.password,
    CLIENT_URL: fields.siteUrl.trim(),
    ORG_UNIT_ID: fields.orgUnitId.trim(),
    CLIENT_NAME: fields.clientName.trim(),
    MODULES: selection.modules.map(Number),
    ...(selection.excluded.length > 0 ? { EXCLUDE_MODULES: selection.excluded.map(Number) } : {}),
    SCOPES: [...scopes],
    ...(Object.keys(selection.titles).length > 0 ? { MODULE_TITLES: { ...selection.titles } } : {}),
    // Sent only when ticked: otherwise the run reuses the verdicts of what has not changed.
    ...(choices.full ? { FULL: true } : {}),
    LANGUAGE: language,
  } satisfies RunTestsRequest;
  const body = await apiRequest<unknown>('/api/run-tests', { method: 'POST', body: request });
  // The run started whatever the answer says: an answer without the job's id starts no monitor.
  const answer = runTestsAnswer.safeParse(body);
  return answer.success ? answer.data : { message: '' };
}
