// The HTML report: one self-contained file (inline styles, no script, no external asset) that reads
// well on screen, offline and printed. Everything that comes from the course is escaped, and only
// http(s) addresses become links. The filters are plain CSS (checkboxes and :has()), so they work
// where scripts are blocked.
import { checkTitle } from '../checks/catalogue.ts';
import type { Severity } from '../checks/finding.ts';
import type { Report, ReportFinding as Finding, ReportModule } from './model.ts';
import { COMPARISON_STYLE, renderComparison } from './render-comparison.ts';

const SEVERITIES: Severity[] = ['error', 'warning', 'info'];
const SEVERITY_LABEL: Record<Severity, string> = { error: 'Error', warning: 'Warning', info: 'Note' };
const SEVERITY_SINGULAR: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'note' };
const SEVERITY_PLURAL: Record<Severity, string> = { error: 'errors', warning: 'warnings', info: 'notes' };

export function escapeHtml(value: unknown): string {
  return String(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A link for web addresses only; anything else (javascript:, data:...) stays text. */
function linkTo(url: string, text: string = url): string {
  let parsed: URL | null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return escapeHtml(text);
  return `<a href="${escapeHtml(parsed.href)}" rel="noopener noreferrer" target="_blank">${escapeHtml(text)}</a>`;
}

function when(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function duration(startedAt: string, finishedAt: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(finishedAt) - Date.parse(startedAt)) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

const STYLE = `
:root { --error: #b3261e; --warning: #8a5300; --info: #1f5fa8; --line: #d9dde3; --muted: #555d66; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; background: #fff; }
header, main, footer { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem; }
header { border-bottom: 3px solid #1b1f24; }
.tool { margin: 0; color: var(--muted); font-size: .85rem; letter-spacing: .04em; text-transform: uppercase; }
h1 { margin: .2rem 0 .6rem; font-size: 1.6rem; }
h2 { margin: 2rem 0 .8rem; font-size: 1.3rem; border-bottom: 1px solid var(--line); padding-bottom: .3rem; }
h3 { margin: 1.4rem 0 .4rem; font-size: 1.1rem; }
h4 { margin: .9rem 0 .3rem; font-size: 1rem; }
a { color: #0b57d0; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
.meta dt { font-weight: 600; } .meta dd { margin: 0; }
.totals { display: flex; flex-wrap: wrap; gap: .8rem; list-style: none; padding: 0; margin: 0; }
.totals li { border: 1px solid var(--line); border-radius: .4rem; padding: .5rem .9rem; min-width: 8rem; }
.totals strong { display: block; font-size: 1.5rem; }
.totals .error strong { color: var(--error); } .totals .warning strong { color: var(--warning); } .totals .info strong { color: var(--info); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
.chart td.bar { width: 45%; }
.bar span { display: inline-block; height: .9rem; vertical-align: middle; }
.bar .error { background: var(--error); } .bar .warning { background: var(--warning); } .bar .info { background: var(--info); }
.chart .numbers { white-space: nowrap; color: var(--muted); font-variant-numeric: tabular-nums; }
.filters fieldset { border: 1px solid var(--line); border-radius: .4rem; margin: 0 0 .6rem; }
.filters label { margin-right: 1rem; white-space: nowrap; display: inline-block; }
.module { margin-left: calc(var(--depth, 0) * 1.2rem); }
.topic { border-left: 3px solid var(--line); padding-left: .8rem; margin: .6rem 0; }
.findings { list-style: none; padding: 0; margin: .3rem 0; }
.finding { padding: .35rem 0; border-top: 1px dashed var(--line); }
.finding:first-child { border-top: 0; }
.badge { display: inline-block; min-width: 4.6rem; text-align: center; font-size: .75rem; font-weight: 700; text-transform: uppercase; border-radius: .25rem; padding: .05rem .4rem; color: #fff; margin-right: .4rem; }
.badge.error { background: var(--error); } .badge.warning { background: var(--warning); } .badge.info { background: var(--info); }
.check { font-weight: 600; } code { font-size: .85em; color: var(--muted); }
.finding p { margin: .15rem 0 0; }
.address { overflow-wrap: anywhere; font-size: .9em; }
.clean { color: var(--muted); margin: .2rem 0; }
footer { color: var(--muted); font-size: .85rem; border-top: 1px solid var(--line); margin-top: 2rem; }
@media print {
  body { font-size: 11pt; } .filters { display: none; } .finding { display: block !important; break-inside: avoid; }
  a { color: inherit; } .topic { break-inside: avoid-page; }
}
`;

function filterStyles(checks: string[]): string {
  const rules = SEVERITIES.map((severity) => `body:has(#show-${severity}:not(:checked)) .finding[data-severity="${severity}"] { display: none; }`);
  checks.forEach((_, index) => rules.push(`body:has(#show-check-${index}:not(:checked)) .finding[data-check-index="${index}"] { display: none; }`));
  return rules.join('\n');
}

function renderFinding(item: Finding, checkIndex: Map<string, number>): string {
  const address = item.url === null ? '' : `<p class="address">${linkTo(item.url)}</p>`;
  return `<li class="finding" data-severity="${item.severity}" data-check-index="${checkIndex.get(item.check)}">
<span class="badge ${item.severity}">${SEVERITY_LABEL[item.severity]}</span><span class="check">${escapeHtml(checkTitle(item.check))}</span> <code>${escapeHtml(item.check)}</code>
<p>${escapeHtml(item.message)}</p>${address}</li>`;
}

function renderFindings(items: Finding[], checkIndex: Map<string, number>): string {
  return `<ul class="findings">${items.map((item) => renderFinding(item, checkIndex)).join('\n')}</ul>`;
}

function renderModule(module: ReportModule, findings: Finding[], checkIndex: Map<string, number>): string {
  const own = findings.filter((item) => item.moduleId === module.moduleId);
  const moduleLevel = own.filter((item) => item.topicId === null);
  const topics = module.topics.map((topic) => {
    const items = own.filter((item) => item.topicId === topic.topicId);
    const body = items.length === 0 ? '<p class="clean">No findings.</p>' : renderFindings(items, checkIndex);
    return `<article class="topic"><h4>${linkTo(topic.viewUrl, topic.title || `Topic ${topic.topicId}`)}</h4>${body}</article>`;
  });
  return `<section class="module" style="--depth: ${module.depth}" aria-label="${escapeHtml(module.title)}">
<h3>${escapeHtml(module.title || `Module ${module.moduleId}`)}</h3>
${moduleLevel.length > 0 ? renderFindings(moduleLevel, checkIndex) : ''}
${topics.join('\n')}
${module.topics.length === 0 && moduleLevel.length === 0 ? '<p class="clean">No topics.</p>' : ''}
</section>`;
}

function renderChart(report: Report): string {
  const rows = report.modules.map((module) => {
    const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
    for (const item of report.findings) if (item.moduleId === module.moduleId) counts[item.severity]++;
    return { module, counts, total: counts.error + counts.warning + counts.info };
  });
  const max = Math.max(1, ...rows.map((row) => row.total));
  const body = rows.map(({ module, counts, total }) => {
    const bars = SEVERITIES.filter((severity) => counts[severity] > 0)
      .map((severity) => `<span class="${severity}" style="width: ${((counts[severity] / max) * 100).toFixed(1)}%"></span>`)
      .join('');
    const numbers = total === 0 ? 'none' : SEVERITIES.filter((s) => counts[s] > 0).map((s) => plural(counts[s], SEVERITY_SINGULAR[s], SEVERITY_PLURAL[s])).join(', ');
    return `<tr><th scope="row" style="padding-left: ${0.5 + module.depth * 1.2}rem">${escapeHtml(module.title || `Module ${module.moduleId}`)}</th><td class="bar" aria-hidden="true">${bars}</td><td class="numbers">${numbers}</td></tr>`;
  });
  return `<table class="chart"><caption class="tool" style="text-align: left">Findings by module</caption>
<thead><tr><th scope="col">Module</th><th scope="col" aria-hidden="true"></th><th scope="col">Findings</th></tr></thead>
<tbody>${body.join('\n')}</tbody></table>`;
}

export function renderHtmlReport(report: Report): string {
  const course = report.courseName ? `${report.courseName} (org unit ${report.orgUnitId})` : `Org unit ${report.orgUnitId}`;
  const checks = [...new Set(report.findings.map((item) => item.check))].sort();
  const checkIndex = new Map(checks.map((check, index) => [check, index]));
  const { totals } = report;
  const checkCounts = new Map<string, number>();
  for (const item of report.findings) checkCounts.set(item.check, (checkCounts.get(item.check) ?? 0) + 1);

  const filters = report.findings.length === 0 ? '' : `<section class="filters" aria-labelledby="filters-title">
<h2 id="filters-title">Show</h2>
<fieldset><legend>Severity</legend>
${SEVERITIES.map((severity) => `<label><input type="checkbox" id="show-${severity}" checked> ${SEVERITY_LABEL[severity]} (${totals.findings[severity]})</label>`).join('\n')}
</fieldset>
<fieldset><legend>Checks</legend>
${checks.map((check, index) => `<label><input type="checkbox" id="show-check-${index}" checked> ${escapeHtml(checkTitle(check))} <code>${escapeHtml(check)}</code> (${checkCounts.get(check)})</label>`).join('\n')}
</fieldset>
</section>`;

  const notScanned = report.notScanned.length === 0 ? '' : `<section aria-labelledby="not-scanned-title">
<h2 id="not-scanned-title">Not scanned (${report.notScanned.length})</h2>
<p>CTPO could not read these topics, so they were not checked. Look at them by hand.</p>
<table><thead><tr><th scope="col">Topic</th><th scope="col">Why</th></tr></thead><tbody>
${report.notScanned.map((item) => `<tr><td>${escapeHtml(item.title || `Topic ${item.topicId ?? item.itemId ?? ''}`)}</td><td>${escapeHtml(item.reason)}</td></tr>`).join('\n')}
</tbody></table></section>`;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>CTPO report: ${escapeHtml(report.client)}, ${escapeHtml(course)}</title>
<style>${STYLE}${COMPARISON_STYLE}
${filterStyles(checks)}</style>
</head>
<body>
<header>
<p class="tool">CTPO: Course Testing Protocol Observer</p>
<h1>${escapeHtml(report.client)}: ${escapeHtml(report.courseName ?? `Course ${report.orgUnitId}`)}</h1>
<dl class="meta">
<dt>Client</dt><dd>${escapeHtml(report.client)}</dd>
<dt>Site</dt><dd>${linkTo(report.siteUrl)}</dd>
<dt>Course</dt><dd>${escapeHtml(course)}</dd>
<dt>Run</dt><dd>${when(report.startedAt)} to ${when(report.finishedAt)} (${duration(report.startedAt, report.finishedAt)})</dd>
<dt>Modules tested</dt><dd>${report.modules.length}</dd>
</dl>
</header>
<main>
<section aria-labelledby="summary-title">
<h2 id="summary-title">Summary</h2>
<ul class="totals">
${SEVERITIES.map((severity) => `<li class="${severity}"><strong>${totals.findings[severity]}</strong>${SEVERITY_PLURAL[severity]}</li>`).join('\n')}
<li><strong>${totals.scanned} / ${totals.topics}</strong>topics scanned</li>
<li><strong>${totals.notScanned}</strong>topics not scanned</li>
<li><strong>${totals.links}</strong>links checked</li>
</ul>
${report.modules.length > 0 ? renderChart(report) : ''}
</section>
${renderComparison(report)}
${filters}
<section aria-labelledby="findings-title">
<h2 id="findings-title">Findings</h2>
${report.findings.length === 0 ? '<p>No findings: every check passed on the topics CTPO could read.</p>' : ''}
${report.modules.map((module) => renderModule(module, report.findings, checkIndex)).join('\n')}
</section>
${notScanned}
</main>
<footer>
<p>Written by CTPO ${escapeHtml(report.tool.version)}. Errors are problems students will meet; warnings should be looked at; notes are for information. Accessibility checks use axe-core without a browser, so colour contrast and layout are not checked.</p>
</footer>
</body>
</html>
`;
}
