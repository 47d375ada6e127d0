// English texts of how a run checked accessibility, for the report's header and the command line;
// the checks judged from the rendered page keep their texts in a file of their own.
import { pageChecks } from './page-checks.ts';

export const accessibility = {
  ...pageChecks,
  'report.meta.accessibility': 'Accessibility',
  'report.a11y.browser': 'Accessibility was checked with axe-core {axe} in headless Chromium {browser}: the WCAG 2.2 A and AA rules and best practices a topic can decide, colour contrast included{enhanced, select, yes {, and AAA enhanced contrast} other {}}.',
  'report.a11y.jsdom': 'Accessibility was checked with axe-core {axe} without a browser (jsdom). Not run: {rules}.',
  'report.a11y.no-browser': 'Checked without a browser: colour contrast and {count, plural, one {# other rule were} other {# other rules were}} not checked. Install Chromium for the full check.',
  'report.a11y.rule-error': 'The accessibility rule {rule} failed to run on {count, plural, one {# topic} other {# topics}}: check those for it by hand.',
  'report.a11y.second-engine': '{engine} {version} checked the same pages beside axe-core (its WCAG 2.2 A and AA requirements); a problem both find on the same element is reported once.',
  'report.a11y.engine-error': "{engine} failed on {count, plural, one {# topic} other {# topics}}; the other engine's verdicts there still stand: check {count, plural, one {it} other {them}} by hand for what {engine} checks.",
} as const;
