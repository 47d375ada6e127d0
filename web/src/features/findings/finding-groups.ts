// The findings gathered as the report gathers them: by problem (check and severity), the errors
// first, then the warnings and the notes; within each, the problem found in the most places first,
// then the one found most often (api/report/groups.ts orders "Fix first" so).
import type { ReportFinding } from '@/features/findings/api/get-report';

export interface FindingGroup {
  /** Stable across filters: the check, its severity, and whether it needs review. */
  key: string;
  check: string;
  severity: ReportFinding['severity'];
  review: boolean;
  findings: ReportFinding[];
}

const SEVERITY_RANK: Record<ReportFinding['severity'], number> = { error: 0, warning: 1, info: 2 };

/** A finding's place in the course, as the report tells places apart. */
const placeOf = (finding: ReportFinding) => [finding.moduleId, finding.topicId, finding.itemType, finding.itemId].join(':');

export function groupFindings(findings: readonly ReportFinding[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup & { order: number }>();
  for (const finding of findings) {
    const key = `${finding.severity}${finding.review ? ':review' : ''}:${finding.check}`;
    const group = groups.get(key);
    if (group) group.findings.push(finding);
    else groups.set(key, { key, check: finding.check, severity: finding.severity, review: finding.review, findings: [finding], order: groups.size });
  }
  const places = (group: FindingGroup) => new Set(group.findings.map(placeOf)).size;
  return [...groups.values()]
    .sort(
      (a, b) =>
        SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
        Number(a.review) - Number(b.review) ||
        places(b) - places(a) ||
        b.findings.length - a.findings.length ||
        a.order - b.order,
    )
    .map(({ order: _order, ...group }) => group);
}
