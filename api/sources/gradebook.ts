// The grades tool: the grade items, the categories and the setup (points, weights or formula),
// read together; without the items there is no gradebook to speak of.
import { readGradeCategories, readGradeItems, readGradeSetup, type Gradebook } from '../brightspace/grades.ts';
import type { ToolReading } from './activity-record.ts';
import { valueOf } from './read-notes.ts';

/** The gradebook; null (and a note) when its items cannot be read. */
export async function readGradebookTool(tool: ToolReading): Promise<Gradebook | null> {
  const { ctx, accessEndedOn } = tool;
  const { session, orgUnitId } = ctx;
  const [items, categories, setup] = await Promise.all([
    tool.counted(readGradeItems(session, orgUnitId)).then((reading) => valueOf(ctx, 'gradebook', reading, accessEndedOn)),
    tool.counted(readGradeCategories(session, orgUnitId)).then((reading) => valueOf(ctx, 'gradebook', reading, accessEndedOn)),
    tool.counted(readGradeSetup(session, orgUnitId)).then((reading) => valueOf(ctx, 'gradebook', reading, accessEndedOn)),
  ]);
  return items === null ? null : { items, categories: categories ?? [], setup };
}
