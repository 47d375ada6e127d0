import axe from 'axe-core';
import { expect } from 'vitest';

// Rules jsdom cannot evaluate (no layout, no computed colours); the e2e run in a real browser covers them.
const JSDOM_BLIND_RULES = ['color-contrast', 'color-contrast-enhanced', 'link-in-text-block', 'target-size', 'scrollable-region-focusable'];

export async function expectNoAxeViolations(): Promise<void> {
  const results = await axe.run(document, {
    rules: Object.fromEntries(JSDOM_BLIND_RULES.map((rule) => [rule, { enabled: false }])),
    resultTypes: ['violations'],
  });
  const summary = results.violations.map(
    (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
  expect(summary).toEqual([]);
}
