// The assignments tool (dropbox folders): each folder's instructions and link attachments, dates,
// grade item and visibility, as activity records.
import { readAssignments } from '../brightspace/dropbox.ts';
import { resolveAddress } from '../extract/html.ts';
import type { ActivityRecord, ToolReading } from './activity-record.ts';
import { valueOf } from './read-notes.ts';

/** Every assignment of the course; null (and a note) when the tool cannot be read. */
export async function readAssignmentTool(tool: ToolReading): Promise<ActivityRecord[] | null> {
  const { ctx, urls } = tool;
  const assignments = valueOf(ctx, 'assignments', await tool.counted(readAssignments(ctx.session, ctx.orgUnitId)), tool.accessEndedOn);
  return assignments?.map((assignment): ActivityRecord => {
    const viewUrl = urls.assignment(assignment.id);
    return {
      activity: { kind: 'assignment', id: assignment.id, title: assignment.name, hidden: assignment.hidden, code: assignment.code, viewUrl },
      scope: 'assignments',
      html: assignment.instructions,
      dates: { start: assignment.start, end: assignment.end, due: assignment.due },
      links: assignment.linkAttachments.flatMap((link) => {
        const url = resolveAddress(link.href, new URL(viewUrl), ctx.orgUnitId);
        return url === undefined ? [] : [{ raw: link.href, url, element: 'link attachment', embedded: false, text: link.name }];
      }),
      gradeItemId: assignment.gradeItemId,
      conditionOwner: { kind: 'assignment', id: assignment.id },
    };
  }) ?? null;
}
