// The report's CSV twin, for a spreadsheet: one row per finding (module, topic, item, check, its id,
// severity, what is wrong, where (with an accessibility finding's selector), link text, address, how
// to fix, fingerprint), then one row per item that could not be scanned, with "Not scanned" as its
// severity and the reason as what is wrong. Headers and words are in the report's language. A UTF-8
// byte order mark makes Excel read the accents and scripts right, and cells that a spreadsheet would
// run as a formula (=, +, -, @, tab, return) are prefixed with ' (csv-stringify's escape_formulas),
// since course text is not ours.
// A report compared with the course's previous run has two more columns (new, still open, fixed or
// dismissed; who dismissed it, when and why) and rows for the findings fixed and dismissed. A run
// with a verdict cache has one more: when the verdict of the finding's item was made, if an earlier
// run made it.
import { stringify } from 'csv-stringify/sync';
import { bcp47Of } from '../i18n/languages.ts';
import type { Report, ReportFinding } from './model.ts';
import { elementCode, fixFor, itemHeading, moduleTitle, presenterFor, severityLabel, topicTitle, whereParts } from './present.ts';

export function renderCsvReport(report: Report): string {
  const p = presenterFor(report.language);
  const header = [
    p.t('csv.module'),
    p.t('csv.topic'),
    p.t('csv.item'),
    p.t('csv.check'),
    p.t('csv.check-id'),
    p.t('csv.severity'),
    p.t('csv.what'),
    p.t('csv.where'),
    p.t('csv.link-text'),
    p.t('csv.address'),
    p.t('csv.fix'),
    p.t('csv.fingerprint'),
  ];
  const compared = report.comparison !== undefined;
  if (compared) header.push(p.t('csv.status'), p.t('csv.dismissal'));
  // A run with a verdict cache says, per finding, when the verdict of its item was made if an earlier run made it.
  const reuse = report.reuse;
  if (reuse !== undefined) header.push(p.t('csv.reused'));
  const reusedCell = (finding: ReportFinding | undefined): string[] => {
    if (reuse === undefined) return [];
    const times = finding === undefined ? [] : reuse.items
      .filter((item) => (finding.document === undefined
        ? item.topicId === finding.topicId && item.itemType === finding.itemType && item.itemId === finding.itemId
        : item.topicId === null && item.url === finding.document))
      .map((item) => item.checkedAt)
      .sort();
    return [times.length === 0 ? '' : when(times[0]!)];
  };
  const placeCells = (entry: { moduleId: number | null; moduleTitle: string | null; topicId: number | null; topicTitle: string | null; itemType: Report['findings'][number]['itemType']; itemId: number | null; itemTitle: string | null }) => [
    entry.moduleId === null ? '' : moduleTitle(p, entry.moduleId, entry.moduleTitle),
    entry.topicId === null ? '' : topicTitle(p, entry.topicId, entry.topicTitle),
    entry.itemType === 'topic' || entry.itemType === 'module' ? '' : itemHeading(p, entry),
  ];
  const findingRow = (finding: ReportFinding, state: string | undefined, dismissal = '') => [
    ...placeCells(finding),
    p.title(finding.check),
    finding.check,
    severityLabel(p, finding),
    finding.message,
    [p.list(whereParts(p, finding)), elementCode(finding), finding.selector ?? null].filter((part) => part !== null && part !== '').join(' · '),
    finding.linkText ?? '',
    finding.url ?? '',
    fixFor(p, finding) ?? '',
    finding.fingerprint,
    ...(compared ? [state === undefined ? '' : p.t('report.history.state', { state }), dismissal] : []),
    ...reusedCell(state === 'fixed' || state === 'dismissed' ? undefined : finding),
  ];
  const when = (iso: string) => `${new Intl.DateTimeFormat(bcp47Of(p.language), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))} UTC`;
  const rows = [
    ...report.findings.map((finding) => findingRow(finding, finding.status)),
    ...(report.comparison?.fixed ?? []).map((finding) => findingRow(finding, 'fixed')),
    ...(report.dismissed ?? []).map(({ dismissal, ...finding }) =>
      findingRow(
        finding,
        'dismissed',
        [p.t('report.history.dismissed.by', { by: dismissal.by, date: when(dismissal.at) }), ...(dismissal.reason === undefined ? [] : [p.t('report.history.dismissed.reason', { reason: dismissal.reason })])].join(' '),
      ),
    ),
  ];
  const notScanned = report.notScanned.map((entry) => [
    ...placeCells(entry),
    '',
    '',
    p.t('report.not-scanned.label'),
    entry.reason,
    '',
    '',
    entry.url ?? '',
    p.t('report.not-scanned.hint'),
    '',
    ...(compared ? ['', ''] : []),
    ...reusedCell(undefined),
  ]);
  // The protocol's items, one row each: the item as the "item", its status as the severity, and the
  // findings that failed it by their fingerprints.
  const statusKey = { pass: 'pass', fail: 'fail', 'needs-person': 'person', 'n/a': 'na' } as const;
  const protocol = report.protocol;
  const protocolRows = (protocol?.items ?? []).map((item) => [
    p.t('report.protocol.name', { name: protocol!.name, version: protocol!.version }),
    '',
    item.title,
    p.t('report.protocol.kind', { kind: item.kind }),
    item.id,
    p.t('report.protocol.status', { status: statusKey[item.status] }),
    item.kind === 'auto'
      ? p.t('report.protocol.findings', { count: item.findings.length, allow: item.allow ?? 0 })
      : item.answer === undefined
        ? ''
        : [p.t('report.protocol.answered', { by: item.answer.by, date: when(item.answer.at) }), ...(item.answer.note === undefined ? [] : [p.t('report.protocol.note', { note: item.answer.note })])].join(' '),
    '',
    '',
    '',
    '',
    item.findings.join(' '),
    ...(compared ? ['', ''] : []),
    ...reusedCell(undefined),
  ]);
  return stringify([header, ...protocolRows, ...rows, ...notScanned], { bom: true, escape_formulas: true, record_delimiter: 'windows' });
}
