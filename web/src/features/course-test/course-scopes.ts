// The course-wide items a run can read besides the modules (run-tests SCOPES), in the order the
// picker lists them; api/http/contract.ts COURSE_SCOPES is the server's copy of this list.
export const COURSE_SCOPES = ['assignments', 'quizzes', 'discussions', 'announcements', 'overview', 'gradebook'] as const;
export type CourseScope = (typeof COURSE_SCOPES)[number];
