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

  'report.history.title': 'Since the last run',
  'report.history.first': 'This is the first run of this course for you, so there is nothing to compare it with yet. The next run will say what is new and what was fixed.',
  'report.history.compared': 'Compared with your run of {date} ({report}).',
  'report.history.counts': '{new, plural, one {# finding is new} other {# findings are new}}, {fixed, plural, one {# was fixed} other {# were fixed}} and {open, plural, one {# is still open} other {# are still open}}.',
  'report.history.dismissed-count': '{count, plural, one {# finding is dismissed} other {# findings are dismissed}} and left out of the counts.',
  'report.history.new.title': 'New since the last run',
  'report.history.new.none': 'Nothing new since the last run.',
  'report.history.fixed.title': 'Fixed since the last run',
  'report.history.fixed.intro': 'The last run found these; this run no longer does. Findings of modules this run did not test are left out.',
  'report.history.fixed.none': 'Nothing was fixed since the last run.',
  'report.history.dismissed.title': 'Dismissed',
  'report.history.dismissed.intro': 'Findings dismissed for this course. They are not counted in this report; restore one in CTPO to count it again.',
  'report.history.dismissed.by': 'Dismissed by {by} on {date}.',
  'report.history.dismissed.reason': 'Reason: {reason}',
  'report.history.severity': '{severity, select, error {Error} warning {Warning} other {Note}}',
  'report.history.status': '{status, select, new {New} other {Still open}}',
} as const;
