// Content objects (content/root/, content/modules/{id}, .../structure/): what the table of contents
// leaves out of modules and topics, namely their descriptions, a topic's due date, the tool item a
// quicklink topic opens and its grade item. None of these routes is paged.
import type { BrightspaceSession } from './session.ts';
import { readListOf, readOneOf, type Reading } from './reading.ts';
import { boolField, dateField, idField, isRecord, numberField, richTextHtml, textField, type RawRecord } from './valence-fields.ts';

export interface ContentObject {
  kind: 'module' | 'topic';
  id: number;
  title: string;
  /** The description's HTML; empty when there is none. */
  description: string;
  parentModuleId: number | null;
  start: Date | null;
  end: Date | null;
  due: Date | null;
  hidden: boolean | null;
  /** Topics: the tool item a quicklink topic opens, its activity type and grade items. */
  toolItemId: number | null;
  activityType: number | null;
  gradeItemIds: number[];
  url: string | null;
  raw: RawRecord;
}

/** Type 0 is a module, 1 a topic; the module fields name themselves when Type is missing. */
export function parseContentObject(raw: unknown): ContentObject | null {
  if (!isRecord(raw)) return null;
  const id = idField(raw.Id);
  if (id === null) return null;
  const type = numberField(raw.Type);
  const kind = type === 0 || (type === null && ('ModuleStartDate' in raw || 'Structure' in raw)) ? 'module' : 'topic';
  const gradeItemIds = new Set<number>();
  const gradeItemId = idField(raw.GradeItemId);
  if (gradeItemId !== null && gradeItemId > 0) gradeItemIds.add(gradeItemId);
  if (Array.isArray(raw.AssociatedGradeItemIds)) {
    for (const entry of raw.AssociatedGradeItemIds) {
      const associated = idField(entry);
      if (associated !== null && associated > 0) gradeItemIds.add(associated);
    }
  }
  return {
    kind,
    id,
    title: textField(raw.Title) ?? '',
    description: richTextHtml(raw.Description),
    parentModuleId: idField(raw.ParentModuleId),
    start: dateField(kind === 'module' ? raw.ModuleStartDate : raw.StartDate),
    end: dateField(kind === 'module' ? raw.ModuleEndDate : raw.EndDate),
    due: dateField(kind === 'module' ? raw.ModuleDueDate : raw.DueDate),
    hidden: boolField(raw.IsHidden),
    toolItemId: idField(raw.ToolItemId),
    activityType: numberField(raw.ActivityType),
    gradeItemIds: [...gradeItemIds],
    url: textField(raw.Url),
    raw,
  };
}

export function readRootModules(session: BrightspaceSession, orgUnitId: number): Promise<Reading<ContentObject[]>> {
  return readListOf(session, session.leUrl(orgUnitId, 'content/root/'), parseContentObject);
}

export function readModule(session: BrightspaceSession, orgUnitId: number, moduleId: number): Promise<Reading<ContentObject>> {
  return readOneOf(session, session.leUrl(orgUnitId, `content/modules/${moduleId}`), parseContentObject);
}

/** A module's children, modules and topics, as full objects. */
export function readModuleStructure(session: BrightspaceSession, orgUnitId: number, moduleId: number): Promise<Reading<ContentObject[]>> {
  return readListOf(session, session.leUrl(orgUnitId, `content/modules/${moduleId}/structure/`), parseContentObject);
}
