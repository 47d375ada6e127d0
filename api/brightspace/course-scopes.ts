// Course-wide items a run can read besides the selected modules (run-tests SCOPES, --scopes), each
// named for the Brightspace tool that holds it.
export const COURSE_SCOPES = ['assignments', 'quizzes', 'discussions', 'announcements', 'overview', 'gradebook'] as const;
export type CourseScope = (typeof COURSE_SCOPES)[number];
