// The gradebook's findings, placed: the gradebook as a whole under the course, each grade item and
// category under its own name, each activity where it was read (under the quicklink topic that
// opens it, or course-wide).
import type { ItemUrls } from '../brightspace/item-urls.ts';
import type { Finding } from '../checks/finding.ts';
import { itemPlace } from '../checks/finding.ts';
import { missingGradeItemFindings, unassociatedFindings, weightFindings, type Gradebook, type GradebookPlaces, type GradedActivity } from '../checks/grades.ts';
import type { ActivityIndex } from './activity-index.ts';

export interface GradebookContext {
  orgUnitId: number;
  courseTitle: string;
  urls: ItemUrls;
  /** Assignments and quizzes were both read, so an item no activity names is truly unused. */
  referencesComplete: boolean;
}

export function gradebookFindings(gradebook: Gradebook, graded: GradedActivity[], index: ActivityIndex, context: GradebookContext): Finding[] {
  const gradebookUrl = context.urls.gradebook();
  const places: GradebookPlaces = {
    gradebook: itemPlace('course', context.orgUnitId, context.courseTitle),
    gradebookUrl,
    item: (item) => itemPlace('grade-item', item.id, item.name),
    category: (category) => itemPlace('grade-item', category.id, category.name),
    itemUrl: () => gradebookUrl,
  };
  const exists = (tool: 'assignment' | 'quiz' | 'discussion-topic', id: number) => index.byId(tool, id).state;
  return [
    ...missingGradeItemFindings(graded, gradebook),
    ...weightFindings(gradebook, places),
    ...unassociatedFindings(gradebook, graded, exists, places, context.referencesComplete),
  ];
}
