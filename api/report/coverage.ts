// What a run read, as places a comparison can match: each module it tested and each course-wide
// part it read (run-tests SCOPES). A finding lies in one or two of them: its module, and the
// course-wide part that read it (a grade finding needs the gradebook, wherever its activity is).
import type { CourseScope } from '../brightspace/course-scopes.ts';
import type { Finding } from '../checks/finding.ts';

/**
 * The course-wide part of the course a finding was read through, or none for a module's own
 * content. Every grade finding needs the gradebook; an item outside the modules belongs to its
 * tool; the course itself outside the gradebook is the overview (its description), the only other
 * course-level item a run reads.
 */
export function scopeOfFinding(finding: Pick<Finding, 'check' | 'moduleId' | 'itemType'>): CourseScope | undefined {
  if (finding.check.startsWith('grades.') || finding.itemType === 'grade-item') return 'gradebook';
  if (finding.moduleId !== null) return undefined;
  switch (finding.itemType) {
    case 'assignment':
      return 'assignments';
    case 'quiz':
      return 'quizzes';
    case 'discussion-forum':
    case 'discussion-topic':
      return 'discussions';
    case 'announcement':
      return 'announcements';
    case 'course':
      return 'overview';
    default:
      return undefined;
  }
}

/**
 * A place a run reads: a module (with its title, for a person, and its parent module, so a sentence
 * can name a module for its sub-modules), or a course-wide part.
 */
export type CoveredPlace = { module: number; title: string; parent?: number } | { scope: CourseScope };

export const placeKeyOf = (place: CoveredPlace): string => ('module' in place ? `module:${place.module}` : `scope:${place.scope}`);

/** The places a finding needs read before it can be compared: its module and its course-wide part. */
export function keysOfFinding(finding: Pick<Finding, 'check' | 'moduleId' | 'itemType'> & { scope?: CourseScope }): string[] {
  const keys: string[] = [];
  if (finding.moduleId !== null) keys.push(`module:${finding.moduleId}`);
  const scope = finding.scope ?? scopeOfFinding(finding);
  if (scope !== undefined) keys.push(`scope:${scope}`);
  return keys;
}

/** The places of a run: its modules in the order tested, then its course-wide parts. */
export function placesOfRun(run: { modules: readonly { moduleId: number; title: string; parentModuleId?: number | null }[]; scopes: readonly CourseScope[] }): CoveredPlace[] {
  return [
    ...run.modules.map((module) => ({ module: module.moduleId, title: module.title, ...(module.parentModuleId === undefined || module.parentModuleId === null ? {} : { parent: module.parentModuleId }) })),
    ...run.scopes.map((scope) => ({ scope })),
  ];
}

/** Whether a comparison covered everything either run read: nothing was left out of it. */
export function comparedOnAll(comparison: { previous: { read?: CoveredPlace[] } | null; compared: { place: CoveredPlace }[]; firstRead: CoveredPlace[] }): boolean {
  const either = new Set([...(comparison.previous?.read ?? []), ...comparison.compared.map((entry) => entry.place), ...comparison.firstRead].map(placeKeyOf));
  return comparison.compared.length === either.size;
}
