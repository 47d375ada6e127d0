// English texts of the command line (npm run ctpo): what the run is doing, and its own failures.
export const cli = {
  'cli.phase.sign-in': 'Signing in',
  'cli.phase.contents': 'Reading the table of contents',
  'cli.phase.topics': 'Checking topics',
  'cli.phase.links': 'Checking links',
  'cli.phase.report': 'Writing the report',
  'cli.progress': '{phase}: {done, number}/{total, number}',
  'cli.private-targets': 'Private and loopback addresses are allowed for this run (--allow-private-targets).',
  'cli.hint': '{flag, select, private {Use --allow-private-targets for a site on this machine or a private network.} site {Check --site.} orgunit {Check --org-unit.} credentials {Check BRIGHTSPACE_USERNAME and BRIGHTSPACE_PASSWORD.} other {}}',
  'cli.cancelled': 'Cancelled from the command line.',
  'cli.not-compared': 'Not compared with earlier runs and no dismissals applied: give --data with the app’s data folder for that.',
  'cli.failed-unexpectedly': 'The run failed unexpectedly. Try again; if it keeps failing, report it with the time of the run.',
} as const;
