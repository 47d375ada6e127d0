// The catalogue of checks (docs/design.md, "The engine"): every finding's id, its severity and the
// short name the report shows. Accessibility findings from axe-core are `a11y.<axe rule id>` and
// take their severity from axe's impact.
import type { Finding, Severity } from '../engine/types.ts';

export const CHECKS = {
  'structure.broken': { severity: 'error', title: 'Broken topic' },
  'structure.hidden': { severity: 'warning', title: 'Hidden from students' },
  'structure.empty-module': { severity: 'warning', title: 'Empty module' },
  'structure.date-order': { severity: 'error', title: 'Dates out of order' },
  'structure.past-date': { severity: 'warning', title: 'Date already passed' },
  'structure.duplicate-title': { severity: 'warning', title: 'Duplicate title' },
  'link.broken': { severity: 'error', title: 'Broken link' },
  'link.unreachable': { severity: 'error', title: 'Unreachable link' },
  'link.redirect': { severity: 'info', title: 'Permanent redirect' },
  'link.insecure': { severity: 'warning', title: 'Insecure (http) link' },
  'link.cross-course': { severity: 'error', title: 'Link into another course' },
  'link.unverifiable': { severity: 'info', title: 'Link could not be verified' },
  'a11y.alt-filename': { severity: 'error', title: 'File name used as alt text' },
  'a11y.link-text-generic': { severity: 'warning', title: 'Generic link text' },
  'media.no-captions': { severity: 'error', title: 'Video without captions' },
  'content.placeholder': { severity: 'error', title: 'Placeholder text' },
  'content.empty': { severity: 'warning', title: 'Empty page' },
} as const satisfies Record<string, { severity: Severity; title: string }>;

export type CheckId = keyof typeof CHECKS;

/** Where a finding belongs: a module, or a topic in it. */
export interface FindingPlace {
  moduleId: number;
  moduleTitle: string;
  topicId: number | null;
  topicTitle: string | null;
}

export function finding(check: CheckId, place: FindingPlace, url: string | null, message: string): Finding {
  return { check, severity: CHECKS[check].severity, ...place, url, message };
}

/** The short name of any check id, axe rules included. */
export function checkTitle(check: string): string {
  if (check in CHECKS) return CHECKS[check as CheckId].title;
  if (check.startsWith('a11y.')) return `Accessibility: ${check.slice('a11y.'.length)}`;
  return check;
}
