import { apiRequest } from '@/lib/api-client';
import type { LocaleTag } from '@/lib/i18n/locale';
import type { CourseFields } from '@/features/course-test/course-fields';
import type { CourseScope } from '@/features/course-test/course-scopes';

export interface TestRunStarted {
  message: string;
  taskArn?: string;
  filename?: string;
}

/**
 * POST /api/run-tests: starts the job over the chosen modules and course-wide items; its report and
 * every message about it are in `language`.
 */
export async function startTestRun(fields: CourseFields, moduleIds: readonly string[], scopes: readonly CourseScope[], language: LocaleTag): Promise<TestRunStarted> {
  const body = await apiRequest<unknown>('/api/run-tests', {
    method: 'POST',
    body: {
      USER_NAME: fields.userName.trim(),
      PASSWORD: fields.password,
      CLIENT_URL: fields.siteUrl.trim(),
      ORG_UNIT_ID: fields.orgUnitId.trim(),
      CLIENT_NAME: fields.clientName.trim(),
      MODULES: moduleIds.map(Number),
      SCOPES: [...scopes],
      LANGUAGE: language,
    },
  });
  const { message, taskArn, filename } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  return {
    message: typeof message === 'string' ? message : '',
    ...(typeof taskArn === 'string' && taskArn !== '' ? { taskArn } : {}),
    ...(typeof filename === 'string' ? { filename } : {}),
  };
}
