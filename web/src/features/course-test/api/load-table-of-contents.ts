import { apiRequest } from '@/lib/api-client';
import type { LocaleTag } from '@/lib/i18n/locale';
import type { CourseFields } from '@/features/course-test/course-fields';

/** POST /api/toc: the course's table of contents, in Brightspace's own shape; errors in `language`. */
export function loadTableOfContents(fields: CourseFields, language: LocaleTag): Promise<unknown> {
  return apiRequest<unknown>('/api/toc', {
    method: 'POST',
    body: {
      ORG_UNIT_ID: fields.orgUnitId.trim(),
      CLIENT_URL: fields.siteUrl.trim(),
      USER_NAME: fields.userName.trim(),
      // A password is sent exactly as typed: spaces may be part of it.
      PASSWORD: fields.password,
      LANGUAGE: language,
    },
  });
}
