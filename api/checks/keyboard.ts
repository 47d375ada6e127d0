// Keyboard access, judged from a walk through the rendered page with the Tab key
// (a11y/page-checks/keyboard.ts): focus that cannot be seen, focus a script takes away, focus that
// cannot leave, and what acts on a click but not from the keyboard.
import type { ItemPlace } from '../brightspace/places.ts';
import { msg } from '../i18n/messages.ts';
import type { KeyboardFacts } from '../a11y/page-checks/page-facts.ts';
import type { Finding } from './finding.ts';
import { pageFinding } from './page-findings.ts';

export function keyboardFindings(keyboard: KeyboardFacts | null, place: ItemPlace, url: string | null): Finding[] {
  if (keyboard === null) return [];
  const findings: Finding[] = [];
  const { noVisibleFocus, focusRemoved, trap, clickOnly } = keyboard;
  if (trap.length > 0) {
    findings.push(pageFinding('a11y.keyboard-trap', place, url, msg('finding.a11y.keyboard-trap', { element: trap[0]!.html }), trap.slice(0, 1)));
  }
  if (noVisibleFocus.length > 0) {
    findings.push(pageFinding('a11y.focus-not-visible', place, url, msg('finding.a11y.focus-not-visible', { count: noVisibleFocus.length, element: noVisibleFocus[0]!.html }), noVisibleFocus));
  }
  if (focusRemoved.length > 0) {
    findings.push(pageFinding('a11y.focus-removed', place, url, msg('finding.a11y.focus-removed', { count: focusRemoved.length, element: focusRemoved[0]!.html }), focusRemoved));
  }
  if (clickOnly.length > 0) {
    findings.push(pageFinding('a11y.click-no-keyboard', place, url, msg('finding.a11y.click-no-keyboard', { count: clickOnly.length, element: clickOnly[0]!.html }), clickOnly));
  }
  return findings;
}
