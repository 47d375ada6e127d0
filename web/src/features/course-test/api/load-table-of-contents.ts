// POST /api/toc, with the wire contract: the course's modules to choose from.
import { apiRequest } from '@/lib/api-client';
import type { LocaleTag } from '@/lib/i18n/locale';
import type { CourseFields } from '@/features/course-test/course-fields';
import { tocAnswer, type TocAnswer, type TocRequest } from '@contract';

/** POST /api/toc: the course's table of contents, as far as the app reads it; errors in `language`. */
export async function loadTableOfContents(fields: CourseFields, language: LocaleTag): Promise<TocAnswer> {
  const request = {
    ORG_UNIT_ID: fields.orgUnitId.trim(),
    CLIENT_URL: fields.siteUrl.trim(),
    USER_NAME: fields.userName.trim(),
    // A password is sent exactly as typed: spaces may be part of it.
    PASSWORD: fields.password,
    LANGUAGE: language,
  } satisfies TocRequest;
  const body = await apiRequest<unknown>('/api/toc', { method: 'POST', body: request });
  // An answer that is no table of contents has no modules to offer.
  const toc = tocAnswer.safeParse(body);
  return toc.success ? toc.data : {};
}
