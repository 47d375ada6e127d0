// Every axe rule has a title and advice a person can read: ours where we wrote one, else axe-core's
// own help and description, in the run's language where axe ships it (never "Accessibility: <id>").
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { checkTitle } from '../../../api/checks/catalogue.ts';
import { fixOf, presenterFor } from '../../../api/report/present.ts';

describe('titles and advice of axe rules', () => {
  it('names a rule we have no title for in axe-core’s words, with its description as the advice', () => {
    expect(checkTitle('a11y.target-size', 'en')).toBe('All touch targets must be 24px large, or leave sufficient space');
    expect(fixOf(presenterFor('en'), 'a11y.target-size')).toBe('Ensure touch targets have sufficient size and space.');
    // Our own title and advice still come first.
    expect(checkTitle('a11y.image-alt', 'en')).toBe('Image without alt text');
  });

  it('speaks the run’s language where axe has it, and English where it has not', () => {
    expect(checkTitle('a11y.target-size', 'de')).toBe('Alle Berührungsobjekte (touch targets) müssen 24 Pixel groß sein oder ausreichend Platz lassen');
    expect(fixOf(presenterFor('de'), 'a11y.target-size')).toBe('Stellt sicher, dass Berührungsobjekte (touch targets) ausreichend groß sind und genügend Platz bieten.');
    expect(checkTitle('a11y.target-size', 'cy')).toBe(checkTitle('a11y.target-size', 'en'));
  });

  it('leaves no rule axe runs with its id for a title', () => {
    for (const rule of axe.getRules()) {
      expect(checkTitle(`a11y.${rule.ruleId}`, 'en'), rule.ruleId).not.toMatch(/^Accessibility: /);
      expect(fixOf(presenterFor('en'), `a11y.${rule.ruleId}`), rule.ruleId).not.toBe(presenterFor('en').t('fix.a11y-rule'));
    }
    // A rule axe does not know keeps the generic words.
    expect(checkTitle('a11y.no-such-rule', 'en')).toBe('Accessibility: no-such-rule');
  });
});
