// The report's account of the course's history, in the run's language: what changed since the
// caller's previous run of the course ("New since the last run", "Fixed since the last run", or
// that there is nothing to compare with yet), and the findings dismissed for the course, apart
// and out of the counts, with who dismissed them, when and why. Every text from the course is
// escaped, and only web addresses become links.
import { checkTitle } from '../checks/catalogue.ts';
import { bcp47Of, DEFAULT_LANGUAGE } from '../i18n/languages.ts';
import { translator } from '../i18n/messages.ts';
import type { Report, ReportDismissedFinding, ReportFinding } from './model.ts';

function escapeHtml(value: unknown): string {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function address(url: string | null): string {
  if (url === null) return '';
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // shown as text
  }
  const safe = parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:');
  return `<p class="history-address">${safe ? `<a href="${escapeHtml(parsed!.href)}" rel="noopener noreferrer" target="_blank">${escapeHtml(url)}</a>` : escapeHtml(url)}</p>`;
}

/** Styles of the history sections only (the report's own stylesheet does the rest). */
export const COMPARISON_STYLE = `
.history-list { list-style: none; padding: 0; margin: .3rem 0; }
.history-list > li { padding: .4rem 0; border-top: 1px dashed #d9dde3; }
.history-list > li:first-child { border-top: 0; }
.history-list p { margin: .15rem 0 0; }
.history-place, .history-address, .history-why { color: #555d66; font-size: .9em; overflow-wrap: anywhere; }
.history-tag { display: inline-block; font-size: .75rem; font-weight: 700; text-transform: uppercase; border-radius: .25rem; padding: .05rem .4rem; margin-right: .4rem; border: 1px solid currentColor; }
.history-tag.error { color: #b3261e; } .history-tag.warning { color: #8a5300; } .history-tag.info { color: #1f5fa8; }
`;

export function renderComparison(report: Report): string {
  if (report.comparison === undefined) return '';
  const language = report.language ?? DEFAULT_LANGUAGE;
  const t = translator(language);
  const date = (iso: string) =>
    `${new Intl.DateTimeFormat(bcp47Of(language), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))} UTC`;

  const item = (finding: ReportFinding, extra = ''): string => {
    const place = [finding.moduleTitle, finding.itemTitle ?? finding.topicTitle].filter((part): part is string => Boolean(part));
    return `<li data-fingerprint="${escapeHtml(finding.fingerprint)}"><span class="history-tag ${finding.severity}">${escapeHtml(t('report.history.severity', { severity: finding.severity }))}</span><strong>${escapeHtml(checkTitle(finding.check, language))}</strong>
<p>${escapeHtml(finding.message)}</p>${place.length > 0 ? `<p class="history-place">${escapeHtml(place.join(' › '))}</p>` : ''}${address(finding.url)}${extra}</li>`;
  };
  const list = (findings: ReportFinding[], none: string, extra?: (finding: ReportFinding) => string) =>
    findings.length === 0 ? `<p>${escapeHtml(none)}</p>` : `<ul class="history-list">${findings.map((finding) => item(finding, extra?.(finding))).join('\n')}</ul>`;

  const { previous, fixed } = report.comparison;
  const dismissed = report.dismissed ?? [];
  const parts: string[] = [`<section aria-labelledby="history-title">\n<h2 id="history-title">${escapeHtml(t('report.history.title'))}</h2>`];
  if (previous === null) {
    parts.push(`<p>${escapeHtml(t('report.history.first'))}</p>`);
  } else {
    const fresh = report.findings.filter((finding) => finding.status === 'new');
    const open = report.findings.filter((finding) => finding.status === 'open').length;
    parts.push(`<p>${escapeHtml(t('report.history.compared', { date: date(previous.finishedAt), report: previous.filename }))}</p>`);
    parts.push(`<p>${escapeHtml(t('report.history.counts', { new: fresh.length, fixed: fixed.length, open }))}</p>`);
    parts.push(`<h3 id="history-new">${escapeHtml(t('report.history.new.title'))} (${fresh.length})</h3>`, list(fresh, t('report.history.new.none')));
    parts.push(`<h3 id="history-fixed">${escapeHtml(t('report.history.fixed.title'))} (${fixed.length})</h3>`);
    if (fixed.length > 0) parts.push(`<p>${escapeHtml(t('report.history.fixed.intro'))}</p>`);
    parts.push(list(fixed, t('report.history.fixed.none')));
  }
  if (dismissed.length > 0) parts.push(`<p>${escapeHtml(t('report.history.dismissed-count', { count: dismissed.length }))}</p>`);
  parts.push('</section>');

  if (dismissed.length > 0) {
    const why = (finding: ReportFinding) => {
      const { dismissal } = finding as ReportDismissedFinding;
      const reason = dismissal.reason === undefined ? '' : ` ${escapeHtml(t('report.history.dismissed.reason', { reason: dismissal.reason }))}`;
      return `<p class="history-why">${escapeHtml(t('report.history.dismissed.by', { by: dismissal.by, date: date(dismissal.at) }))}${reason}</p>`;
    };
    parts.push(`<section aria-labelledby="dismissed-title">
<h2 id="dismissed-title">${escapeHtml(t('report.history.dismissed.title'))} (${dismissed.length})</h2>
<p>${escapeHtml(t('report.history.dismissed.intro'))}</p>
${list(dismissed, '', why)}
</section>`);
  }
  return parts.join('\n');
}
