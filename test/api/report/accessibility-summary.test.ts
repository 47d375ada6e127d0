// The report's account of how accessibility was checked, in words and as data.
import { describe, expect, it } from 'vitest';
import { accessibilityOfReport } from '../../../api/report/accessibility-summary.ts';

describe('accessibilityOfReport', () => {
  it('names every rule that failed to run, with how many topics, most first', () => {
    const summary = accessibilityOfReport(
      { mode: 'browser', axeVersion: '4.14.1', browserVersion: '156.0.1', enhancedContrast: true, notRun: [], ruleErrors: new Map([['aria-hidden-focus', 1], ['color-contrast', 3]]) },
      'en',
    );
    expect(summary.ruleErrors).toEqual([{ rule: 'color-contrast', items: 3 }, { rule: 'aria-hidden-focus', items: 1 }]);
    expect(summary.ruleErrorNotes).toEqual([
      'The accessibility rule color-contrast failed to run on 3 topics: check those for it by hand.',
      'The accessibility rule aria-hidden-focus failed to run on 1 topic: check those for it by hand.',
    ]);
    expect(summary.summary).toBe(
      'Accessibility was checked with axe-core 4.14.1 in headless Chromium 156.0.1: the WCAG 2.2 A and AA rules and best practices a topic can decide, colour contrast included, and AAA enhanced contrast.',
    );
    expect(summary.note).toBeUndefined();
  });

  it('says without a browser what was not checked', () => {
    const summary = accessibilityOfReport({ mode: 'jsdom', axeVersion: '4.14.1', enhancedContrast: false, notRun: ['color-contrast', 'target-size'], ruleErrors: new Map() }, 'en');
    expect(summary.note).toBe('Checked without a browser: colour contrast and 1 other rule were not checked. Install Chromium for the full check.');
    expect(summary.summary).toBe('Accessibility was checked with axe-core 4.14.1 without a browser (jsdom). Not run: color-contrast, target-size.');
  });
});
