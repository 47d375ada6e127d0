// The course home's news tool: its announcements and the course overview, the HTML students read
// on the course's home page.
import type { Announcement, Overview } from '../brightspace/news.ts';
import { readAnnouncements, readOverview } from '../brightspace/news.ts';
import type { ToolReading } from './activity-record.ts';
import { valueOf } from './read-notes.ts';

/** Every announcement of the course; null (and a note) when the tool cannot be read. */
export async function readAnnouncementTool(tool: ToolReading): Promise<Announcement[] | null> {
  const { ctx } = tool;
  return valueOf(ctx, 'announcements', await tool.counted(readAnnouncements(ctx.session, ctx.orgUnitId)), tool.accessEndedOn);
}

/** The course's overview; null when there is none or it cannot be read (noted). */
export async function readOverviewTool(tool: ToolReading): Promise<Overview | null> {
  const { ctx } = tool;
  const reading = await tool.counted(readOverview(ctx.session, ctx.orgUnitId));
  // A course without an overview answers 404 on some sites: not worth a note of its own.
  if (!reading.ok && reading.failure.problem === 'not-offered') return null;
  return valueOf(ctx, 'overview', reading, tool.accessEndedOn);
}
