// The report model: the tested modules in table-of-contents order, findings sorted the way a course
// builder works through them (module, topic, severity), and the totals.
import packageJson from '../../package.json' with { type: 'json' };
import type { SelectedModule } from '../brightspace/toc.ts';
import type { Finding, NotScanned, Report, Severity } from '../engine/types.ts';

export const TOOL_VERSION: string = packageJson.version;

export interface ReportInput {
  client: string;
  siteUrl: string;
  orgUnitId: number;
  courseName?: string;
  selected: SelectedModule[];
  viewUrl: (topicId: number) => string;
  findings: Finding[];
  notScanned: NotScanned[];
  scanned: number;
  links: number;
  startedAt: Date;
  finishedAt: Date;
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function buildReport(input: ReportInput): Report {
  const moduleOrder = new Map(input.selected.map((entry, index) => [entry.module.ModuleId, index]));
  const topicOrder = new Map<number, number>();
  const topicRank = new Map<number, number>();
  for (const entry of input.selected) {
    entry.topics.forEach((topic, index) => {
      topicOrder.set(topic.TopicId, index);
      topicRank.set(topic.TopicId, topicRank.size);
    });
  }

  const findings = [...input.findings].sort(
    (a, b) =>
      (moduleOrder.get(a.moduleId) ?? Number.MAX_SAFE_INTEGER) - (moduleOrder.get(b.moduleId) ?? Number.MAX_SAFE_INTEGER) ||
      (a.topicId === null ? -1 : (topicOrder.get(a.topicId) ?? 0)) - (b.topicId === null ? -1 : (topicOrder.get(b.topicId) ?? 0)) ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.check.localeCompare(b.check) ||
      (a.url ?? '').localeCompare(b.url ?? '') ||
      a.message.localeCompare(b.message),
  );
  const notScanned = [...input.notScanned].sort(
    (a, b) => (topicRank.get(a.topicId) ?? Number.MAX_SAFE_INTEGER) - (topicRank.get(b.topicId) ?? Number.MAX_SAFE_INTEGER),
  );
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const item of findings) counts[item.severity]++;
  const topics = input.selected.reduce((sum, entry) => sum + entry.topics.length, 0);

  return {
    schemaVersion: 1,
    tool: { name: 'CTPO', version: TOOL_VERSION },
    client: input.client,
    siteUrl: input.siteUrl,
    orgUnitId: input.orgUnitId,
    ...(input.courseName !== undefined ? { courseName: input.courseName } : {}),
    modules: input.selected.map((entry) => ({
      moduleId: entry.module.ModuleId,
      title: entry.module.Title,
      depth: entry.depth,
      parentModuleId: entry.parentModuleId,
      topics: entry.topics.map((topic) => ({ topicId: topic.TopicId, title: topic.Title, viewUrl: input.viewUrl(topic.TopicId) })),
    })),
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    totals: { topics, scanned: input.scanned, notScanned: notScanned.length, links: input.links, findings: counts },
    findings,
    notScanned,
  };
}
