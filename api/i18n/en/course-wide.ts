// English texts of reading the whole course: the Brightspace client's manners (rate limits, an
// expired session, routes a site does not offer), the course-wide items, their findings and the
// report's notes about them.
export const courseWide = {
  'error.site.foreign-address': '{host} sent CTPO to an address on another site while listing course items; CTPO reads only the course site itself.',
  'error.site.session-lost': 'Brightspace kept ending the session during the run, even after CTPO signed in again. Try again later; if it keeps happening, ask the site administrator about session time limits.',
} as const;
