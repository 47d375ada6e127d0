// English texts of the limits that keep CTPO available and its data private: caps on runs and on
// table-of-contents loads, text fields that hide characters, and report links that no longer work.
export const safeguards = {
  'error.runs.deployment-full':
    'CTPO is already running {count, plural, one {# test run} other {# test runs}}, as many as it takes at once. Start this one again in a few minutes.',
  'error.toc.too-many': 'You are already loading {count, plural, one {# table of contents} other {# tables of contents}}. Wait for one to finish, then try again.',
  'error.field.hidden-characters':
    '{field} contains an invisible or direction-changing character ({codePoint}). Type it again without copying it from elsewhere.',
  'error.input.client-hidden-characters':
    'The Client label contains an invisible or direction-changing character ({codePoint}). Type it again without copying it from elsewhere.',
  'page.report-link.expired': 'This report link has expired',
  'page.report-link.invalid': 'This report link is not valid',
  'error.report-links.busy': 'Your report links could not be ended just now. Try again in a moment.',
  'page.report-link.how': 'Report links work for a limited time. Open the report again from CTPO: sign in, find the run in the job monitor and choose View HTML Output.',
} as const;
