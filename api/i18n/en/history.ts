// English texts of a user's runs over time: the answers of GET /api/jobs and /api/dismissals, and
// the report's comparison with the previous run of the course.
export const history = {
  'error.history.limit': 'limit must be a whole number from 1 to {max, number}.',
  'error.history.cursor': 'cursor is not valid: send the nextCursor of the previous page as it came.',
  'error.history.site-required': 'siteUrl is required: the Brightspace site address, such as https://school.brightspace.com.',
  'error.history.site-refused': 'siteUrl: {problem}',
  'error.history.org-unit': "orgUnitId is required: the course's org unit ID, a positive whole number such as 6606.",
  'error.history.fingerprint': "fingerprint must be a finding's fingerprint from a report: 20 characters, 0-9 and a-f.",
  'error.history.reason': 'reason must be text of at most {max, number} characters, without control characters.',
  'error.history.too-many-dismissals': 'You have already dismissed {max, number} findings of this course. Restore some before you dismiss more.',
} as const;
