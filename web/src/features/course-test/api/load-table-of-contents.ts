import { apiRequest } from '@/lib/api-client';
import type { CourseFields } from '@/features/course-test/course-fields';

/** POST /api/toc: the course's table of contents, in Brightspace's own shape. */
export function loadTableOfContents(fields: CourseFields): Promise<unknown> {
  return apiRequest<unknown>('/api/toc', {
    method: 'POST',
    body: {
      ORG_UNIT_ID: fields.orgUnitId.trim(),
      CLIENT_URL: fields.siteUrl.trim(),
      USER_NAME: fields.userName.trim(),
      // A password is sent exactly as typed: spaces may be part of it.
      PASSWORD: fields.password,
    },
  });
}
