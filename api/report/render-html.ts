// The HTML report: one self-contained file (inline style, no script, no external asset) in the
// run's language, that reads well on a phone, offline and printed. First what to do: a summary,
// "Fix first" (errors by problem), then module → topic with every finding in plain words (what,
// where, how to fix, the address labelled), what could not be scanned in its place, problems
// repeated in many places listed once, and the course-wide items; what changed since the last run
// of the course, and the findings dismissed for it, apart. The header says how accessibility was
// checked and what it could not cover. Everything from the course is
// escaped, and only http(s) addresses become links. The filters are plain CSS (checkboxes and
// :has()), so they work where scripts are blocked.
import type { Severity } from '../checks/finding.ts';
import { pageCheckReference } from '../checks/page-findings.ts';
import type { MessageId } from '../i18n/messages.ts';
import { bcp47Of, directionOf } from '../i18n/languages.ts';
import { fixFirstGroups, repeatedGroups, type PlaceRef, type RepeatedGroup } from './groups.ts';
import type { Report, ReportFinding, ReportModule, ReportNotScanned, ReportProtocol, ReportProtocolItem } from './model.ts';
import {
  addressLabel,
  elementCode,
  fixFor,
  fixOf,
  itemHeading,
  itemTitle,
  moduleTitle,
  placeKey,
  ISOLATE_END,
  ISOLATE_START,
  presenterFor,
  severityLabel,
  summarySentences,
  topicTitle,
  whereParts,
  type Presenter,
} from './present.ts';
import { PROTOCOL_STYLE, REPORT_STYLE } from './report-style.ts';
import { comparedOnAll, type CoveredPlace } from './coverage.ts';

const SEVERITIES: Severity[] = ['error', 'warning', 'info'];

/** Text as HTML; course text the presenter marked in a sentence becomes a <bdi> element. */
export function escapeHtml(value: unknown): string {
  return escapeText(value).replaceAll(ISOLATE_START, '<bdi>').replaceAll(ISOLATE_END, '</bdi>');
}

/** Text for an attribute or the <title>, where no element can stand: the marks are dropped. */
function escapeAttribute(value: unknown): string {
  return escapeText(value).replaceAll(ISOLATE_START, '').replaceAll(ISOLATE_END, '');
}

function escapeText(value: unknown): string {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Text from the course on its own: isolated, so it keeps its own direction in either kind of page. */
function courseText(text: string): string {
  return `<bdi>${escapeHtml(text)}</bdi>`;
}

/** A link for web addresses only; anything else (javascript:, data:...) stays text. */
function linkTo(url: string, text: string = url): string {
  let parsed: URL | null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return courseText(text);
  return `<a href="${escapeHtml(parsed.href)}" rel="noopener noreferrer" target="_blank">${courseText(text)}</a>`;
}

/** Everything a writer needs while rendering one report. */
interface Context {
  p: Presenter;
  report: Report;
  /** Each check's position in the check filter. */
  checkIndex: Map<string, number>;
  /** Findings listed under Repeated problems: in their place only a line points there. */
  repeatedOf: Map<ReportFinding, RepeatedGroup>;
  /** Fingerprints of the findings a failed protocol item links to. */
  linked: Set<string>;
}

function duration(p: Presenter, startedAt: string, finishedAt: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(finishedAt) - Date.parse(startedAt)) / 1000));
  return seconds < 60 ? p.t('report.duration.seconds', { seconds }) : p.t('report.duration.minutes', { minutes: Math.floor(seconds / 60), seconds: seconds % 60 });
}

function when(p: Presenter, iso: string): string {
  return new Intl.DateTimeFormat(bcp47Of(p.language), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso));
}

function checkHead(ctx: Context, finding: Pick<ReportFinding, 'check' | 'severity' | 'review' | 'status'>, level: 'p' | 'h3' = 'p'): string {
  const { p } = ctx;
  const fresh = finding.status === 'new' ? `<span class="status-new">${escapeHtml(p.t('report.new'))}</span>` : '';
  return `<${level} class="finding-head"><span class="badge ${finding.severity}">${escapeHtml(severityLabel(p, finding))}</span>${fresh}<span class="finding-title">${escapeHtml(p.title(finding.check))}</span> <span class="check-id">${escapeHtml(finding.check)}</span></${level}>`;
}

/** "Where" of a finding: in words, with the element's code and axe's selector; empty when nothing is known. */
function whereHtml(ctx: Context, finding: ReportFinding): string {
  const { p } = ctx;
  const where = whereParts(p, finding);
  const code = elementCode(finding);
  // axe's selector finds the element on the page (the browser's developer tools take it as it is).
  const selector = finding.selector === undefined || finding.selector === '' ? '' : ` <code class="check-id selector">${escapeHtml(finding.selector)}</code>`;
  if (where.length === 0 && selector === '') return '';
  return `${escapeHtml(p.list(where))}${code === null ? '' : ` <code class="check-id">${escapeHtml(code)}</code>`}${selector}`;
}

/** The help link of an axe rule, or the W3C's page of a check judged from the rendered page, after the advice. */
function ruleHelp(ctx: Context, finding: ReportFinding): string {
  if (finding.helpUrl === undefined) return '';
  const reference = pageCheckReference(finding.check);
  const text = reference === undefined
    ? ctx.p.t('report.fix.rule-help', { rule: finding.check.replace(/^a11y\./, '') })
    : ctx.p.t('report.fix.wcag-help', { criteria: reference.criteria.length === 0 ? 'none' : reference.criteria.join(', ') });
  return ` ${linkTo(finding.helpUrl, text)}`;
}

/**
 * What, where, the address and how to fix: the body of a finding. A repeated problem shows what its
 * places share (`where: false`, and the advice only when every place shares it).
 */
function findingDetails(ctx: Context, finding: ReportFinding, { where = true, fix = fixFor(ctx.p, finding) }: { where?: boolean; fix?: string | null } = {}): string {
  const { p } = ctx;
  const rows: string[] = [`<dt>${escapeHtml(p.t('report.field.what'))}</dt><dd>${escapeHtml(finding.message)}</dd>`];
  const place = where ? whereHtml(ctx, finding) : '';
  if (place !== '') rows.push(`<dt>${escapeHtml(p.t('report.field.where'))}</dt><dd>${place}</dd>`);
  if (finding.url !== null) rows.push(`<dt>${escapeHtml(addressLabel(p, finding))}</dt><dd class="address">${linkTo(finding.url)}</dd>`);
  if (fix !== null) rows.push(`<dt>${escapeHtml(p.t('report.field.fix'))}</dt><dd>${escapeHtml(fix)}${ruleHelp(ctx, finding)}</dd>`);
  const html = finding.element?.trim().startsWith('<') ? `<details class="html"><summary>${escapeHtml(p.t('report.field.html'))}</summary><code>${escapeHtml(finding.element)}</code></details>` : '';
  return `<dl>${rows.join('')}</dl>${html}`;
}

function filterAttributes(ctx: Context, finding: ReportFinding): string {
  return `data-severity="${finding.severity}" data-check-index="${ctx.checkIndex.get(finding.check)}"`;
}

function renderFinding(ctx: Context, finding: ReportFinding): string {
  const group = ctx.repeatedOf.get(finding);
  if (group !== undefined) {
    // Told once under Repeated problems; here where it is in this place, and a pointer to the rest.
    const where = whereHtml(ctx, finding);
    const whereRow = where === '' ? '' : `<dl><dt>${escapeHtml(ctx.p.t('report.field.where'))}</dt><dd>${where}</dd></dl>`;
    return `<li class="finding"${findingAnchor(ctx, finding)} ${filterAttributes(ctx, finding)}>${checkHead(ctx, finding)}${whereRow}<p><a href="#${group.id}">${escapeHtml(ctx.p.t('report.repeated.see', { title: ctx.p.title(finding.check) }))}</a></p></li>`;
  }
  return `<li class="finding"${findingAnchor(ctx, finding)} ${filterAttributes(ctx, finding)}>${checkHead(ctx, finding)}${findingDetails(ctx, finding)}</li>`;
}

/** An id for a finding a failed protocol item links to (none otherwise, so other reports stay as they were). */
function findingAnchor(ctx: Context, finding: ReportFinding): string {
  return ctx.linked.has(finding.fingerprint) ? ` id="finding-${escapeHtml(finding.fingerprint)}"` : '';
}

function renderFindings(ctx: Context, findings: ReportFinding[]): string {
  return findings.length === 0 ? '' : `<ul class="findings">${findings.map((finding) => renderFinding(ctx, finding)).join('\n')}</ul>`;
}

function renderNotScanned(ctx: Context, entries: ReportNotScanned[]): string {
  const { p } = ctx;
  return entries
    .map((entry) => {
      const address = entry.url === undefined ? '' : `<p class="address">${linkTo(entry.url)}</p>`;
      return `<div class="not-scanned"><p><span class="badge">${escapeHtml(p.t('report.not-scanned.label'))}</span>${escapeHtml(entry.reason)}</p>${address}<p class="hint">${escapeHtml(p.t('report.not-scanned.hint'))}</p></div>`;
    })
    .join('\n');
}

/** Lists longer than this are folded (details), so a phone reaches what follows. */
const FOLD_AFTER = 5;

/** A list folded under its summary when it is long; open when it is short. */
function folded(summary: string, body: string, count: number): string {
  return `<details class="more"${count > FOLD_AFTER ? '' : ' open'}><summary>${summary}</summary>${body}</details>`;
}

/** "Module › Topic › Item", each part isolated (HTML). */
function placeLabel(ctx: Context, place: PlaceRef): string {
  const { p } = ctx;
  const parts: string[] = [];
  if (place.moduleId !== null) parts.push(courseText(moduleTitle(p, place.moduleId, place.moduleTitle)));
  if (place.topicId !== null) parts.push(courseText(topicTitle(p, place.topicId, place.topicTitle)));
  if (place.itemType !== 'module' && place.itemType !== 'topic') parts.push(place.moduleId === null ? escapeHtml(itemHeading(p, place)) : courseText(itemTitle(p, place)));
  return parts.join(' › ');
}

/** Links to the places of a group; `counted`: how many errors each place has, when more than one. */
function renderPlaces(ctx: Context, places: PlaceRef[], counted = false): string {
  const count = (place: PlaceRef) => (counted && place.count > 1 ? ` <span class="spread">(${escapeHtml(ctx.p.t('report.count.error', { count: place.count }))})</span>` : '');
  return `<ul class="places">${places.map((place) => `<li><a href="#${place.key}">${placeLabel(ctx, place)}</a>${count(place)}</li>`).join('')}</ul>`;
}

function renderFixFirst(ctx: Context): string {
  const { p } = ctx;
  const groups = fixFirstGroups(ctx.report);
  const body =
    groups.length === 0
      ? `<p>${escapeHtml(p.t('report.fix-first.none'))}</p>`
      : `<p>${escapeHtml(p.t('report.fix-first.intro'))}</p>
<ol class="fix-first">
${groups
  .map((group) => {
    const fix = fixOf(p, group.check);
    return `<li><h3>${escapeHtml(p.title(group.check))} <span class="check-id">${escapeHtml(group.check)}</span></h3>
<p class="spread">${escapeHtml(p.t('report.fix-first.spread', { findings: group.findings.length, places: group.places.length }))}</p>
${fix === null ? '' : `<p><strong>${escapeHtml(p.t('report.label', { label: p.t('report.field.fix') }))}</strong> ${escapeHtml(fix)}</p>`}
${group.places.length > FOLD_AFTER ? folded(escapeHtml(p.t('report.repeated.places', { count: group.places.length })), renderPlaces(ctx, group.places, true), group.places.length) : renderPlaces(ctx, group.places, true)}</li>`;
  })
  .join('\n')}
</ol>`;
  return `<section id="fix-first" aria-labelledby="fix-first-title"><h2 id="fix-first-title">${escapeHtml(p.t('report.fix-first.title'))}</h2>
${body}</section>`;
}

/**
 * A repeated problem: what its places share once, then every place with its own details (link
 * text, element, page or slide, document) and, where the advice differs (a page and a PDF), its own.
 */
function renderRepeated(ctx: Context, groups: RepeatedGroup[]): string {
  if (groups.length === 0) return '';
  const { p } = ctx;
  const items = groups.map((group) => {
    const fixes = group.findings.map((finding) => fixFor(p, finding));
    const shared = fixes.every((fix) => fix === fixes[0]) ? fixes[0]! : null;
    const lines = group.findings.map((finding, index) => {
      const where = whereHtml(ctx, finding);
      const own = shared === null && fixes[index] !== null ? ` <span class="place-fix">${escapeHtml(p.t('report.label', { label: p.t('report.field.fix') }))} ${escapeHtml(fixes[index]!)}</span>` : '';
      return `<li><a href="#${placeKey(finding)}">${placeLabel(ctx, { ...finding, key: '', count: 1 })}</a>${where === '' ? '' : `: ${where}`}${own}</li>`;
    });
    return `<li class="finding" id="${group.id}" ${filterAttributes(ctx, group.example)}>${checkHead(ctx, group.example)}${findingDetails(ctx, group.example, { where: false, fix: shared })}
${folded(escapeHtml(p.t('report.repeated.places', { count: group.places.length })), `<ul class="places">${lines.join('')}</ul>`, lines.length)}</li>`;
  });
  return `<section id="repeated" aria-labelledby="repeated-title"><h2 id="repeated-title">${escapeHtml(p.t('report.repeated.title'))}</h2>
<p>${escapeHtml(p.t('report.repeated.intro'))}</p>
<ul class="findings">${items.join('\n')}</ul></section>`;
}

function renderModule(ctx: Context, module: ReportModule, findings: ReportFinding[], notScanned: ReportNotScanned[]): string {
  const { p } = ctx;
  const moduleLevel = findings.filter((item) => item.topicId === null || !module.topics.some((topic) => topic.topicId === item.topicId));
  const moduleNotScanned = notScanned.filter((item) => item.topicId === null || !module.topics.some((topic) => topic.topicId === item.topicId));
  const clean: string[] = [];
  const topics: string[] = [];
  for (const topic of module.topics) {
    const own = findings.filter((item) => item.topicId === topic.topicId);
    const skipped = notScanned.filter((item) => item.topicId === topic.topicId);
    const title = topicTitle(p, topic.topicId, topic.title);
    const reused = reusedNote(ctx, (item) => item.topicId === topic.topicId);
    if (own.length === 0 && skipped.length === 0) {
      clean.push(reused === '' ? linkTo(topic.viewUrl, title) : `${linkTo(topic.viewUrl, title)} ${reused}`);
      continue;
    }
    topics.push(`<article class="topic" id="topic-${topic.topicId}" aria-labelledby="topic-${topic.topicId}-title">
<h4 id="topic-${topic.topicId}-title">${linkTo(topic.viewUrl, title)}</h4>${reused === '' ? '' : `\n<p>${reused}</p>`}
${renderNotScanned(ctx, skipped)}
${renderFindings(ctx, own)}
</article>`);
  }
  const depth = Math.min(module.depth, 3);
  const cleanLine = clean.length === 0 ? '' : `<p class="clean">${messageHtml(p, 'report.topics.clean', {}, { topics: listHtml(p, clean) })}</p>`;
  const empty = module.topics.length === 0 && moduleLevel.length === 0 && moduleNotScanned.length === 0 ? `<p class="clean">${escapeHtml(p.t('report.module.no-topics'))}</p>` : '';
  return `<section class="module depth-${depth}" id="module-${module.moduleId}" aria-labelledby="module-${module.moduleId}-title">
<h3 id="module-${module.moduleId}-title">${courseText(moduleTitle(p, module.moduleId, module.title))}</h3>
${renderNotScanned(ctx, moduleNotScanned)}
${renderFindings(ctx, moduleLevel)}
${topics.join('\n')}
${cleanLine}${empty}
</section>`;
}

/** A message with values made of HTML (links, isolated course text): formatted around markers. */
function messageHtml(p: Presenter, id: MessageId, values: Record<string, string | number>, html: Record<string, string>): string {
  // Private-use characters mark where each piece goes; course text never reaches the message itself.
  const pieces: string[] = [];
  const marked: Record<string, string> = {};
  for (const [name, piece] of Object.entries(html)) marked[name] = `\uE000${pieces.push(piece) - 1}\uE001`;
  return escapeHtml(p.t(id, { ...values, ...marked })).replace(/\uE000(\d+)\uE001/g, (_, index: string) => pieces[Number(index)]!);
}

/** A list of HTML pieces in the language's words ("a, b and c"). */
function listHtml(p: Presenter, pieces: string[]): string {
  const markers = pieces.map((_, index) => `\uE000${index}\uE001`);
  return escapeHtml(p.list(markers)).replace(/\uE000(\d+)\uE001/g, (_, index: string) => pieces[Number(index)]!);
}

function fileNameOf(url: string): string {
  const last = url.split(/[?#]/)[0]!.split('/').filter(Boolean).pop() ?? url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The documents that were read, each with where it was found. */
function renderDocuments(ctx: Context): string {
  const { p, report } = ctx;
  if (report.documents.length === 0) return '';
  const rows = report.documents.map((item) => {
    const name = item.title ?? fileNameOf(item.url);
    const pages = item.pages === undefined || item.pages === null ? '' : new Intl.NumberFormat(bcp47Of(p.language)).format(item.pages);
    const reused = reusedNote(ctx, (entry) => entry.topicId === null && entry.url === item.url);
    return `<tr><td class="address">${linkTo(item.url, name)}${reused === '' ? '' : `<br>${reused}`}</td><td>${escapeHtml(item.type.toUpperCase())}</td><td>${escapeHtml(pages)}</td><td>${courseText(item.topicTitle ?? item.itemTitle ?? '')}</td></tr>`;
  });
  return `<section id="documents" aria-labelledby="documents-title">
<h2 id="documents-title">${escapeHtml(p.t('report.documents.title', { count: report.documents.length }))}</h2>
<table><thead><tr><th scope="col">${escapeHtml(p.t('report.documents.document'))}</th><th scope="col">${escapeHtml(p.t('report.documents.type'))}</th><th scope="col">${escapeHtml(p.t('report.documents.pages'))}</th><th scope="col">${escapeHtml(p.t('report.documents.where'))}</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></section>`;
}

function renderCourseWide(ctx: Context, findings: ReportFinding[], notScanned: ReportNotScanned[]): string {
  if (findings.length === 0 && notScanned.length === 0) return '';
  const { p } = ctx;
  const items = new Map<string, { heading: string; findings: ReportFinding[]; notScanned: ReportNotScanned[] }>();
  const entryOf = (entry: ReportFinding | ReportNotScanned) => {
    const key = placeKey(entry);
    let item = items.get(key);
    if (item === undefined) {
      item = { heading: itemHeading(p, entry), findings: [], notScanned: [] };
      items.set(key, item);
    }
    return item;
  };
  for (const entry of notScanned) entryOf(entry).notScanned.push(entry);
  for (const finding of findings) entryOf(finding).findings.push(finding);
  // Each item's heading links to its page in Brightspace, where the run knows it.
  const pages = new Map(ctx.report.items.filter((item) => item.moduleId === null).map((item) => [placeKey(item), item.viewUrl]));
  const headingOf = (key: string, heading: string) => {
    const page = pages.get(key);
    return page === undefined || page === null ? escapeHtml(heading) : linkTo(page, heading);
  };
  const articles = [...items.entries()].map(
    ([key, item]) => `<article class="item" id="${key}" aria-labelledby="${key}-title"><h3 id="${key}-title">${headingOf(key, item.heading)}</h3>
${renderNotScanned(ctx, item.notScanned)}
${renderFindings(ctx, item.findings)}</article>`,
  );
  return `<section id="course-wide" aria-labelledby="course-wide-title"><h2 id="course-wide-title">${escapeHtml(p.t('report.course-wide.title'))}</h2>
${articles.join('\n')}</section>`;
}

/** A finding of the course's history (new, fixed or dismissed): where it is, then as everywhere else. */
function renderHistoryFinding(ctx: Context, finding: ReportFinding, extra = ''): string {
  const place = placeLabel(ctx, { ...finding, key: '', count: 1 });
  return `<li class="finding">${checkHead(ctx, finding)}${place === '' ? '' : `<p class="spread">${place}</p>`}${findingDetails(ctx, finding)}${extra}</li>`;
}

/**
 * What changed since the caller's previous run of the course (report/compare.ts): what is new, what
 * was fixed, or that there is nothing to compare with yet. Absent when the run was never compared.
 */
function renderHistory(ctx: Context): string {
  const { p, report } = ctx;
  if (report.comparison === undefined) return '';
  const { previous, fixed } = report.comparison;
  const dismissed = report.dismissed ?? [];
  const list = (findings: ReportFinding[], none: string) =>
    findings.length === 0 ? `<p>${escapeHtml(none)}</p>` : `<ul class="findings">${findings.map((finding) => renderHistoryFinding(ctx, finding)).join('\n')}</ul>`;
  const parts: string[] = [];
  if (previous === null) {
    parts.push(`<p>${escapeHtml(p.t('report.history.first'))}</p>`);
  } else {
    const fresh = report.findings.filter((finding) => finding.status === 'new');
    const open = report.findings.filter((finding) => finding.status === 'open').length;
    parts.push(
      `<p>${messageHtml(p, 'report.history.compared', { date: `${when(p, previous.finishedAt)} UTC` }, { places: placesHtml(ctx, previous.read ?? []) })}</p>`,
      ...coverageLines(ctx),
      `<p class="lead">${escapeHtml(p.t('report.history.counts', { new: fresh.length, fixed: fixed.length, open }))}</p>`,
      // What is new is also in its place below: folded when long, so the findings stay near.
      fresh.length === 0
        ? `<h3 id="history-new">${escapeHtml(p.t('report.history.new.title'))} (0)</h3>${list(fresh, p.t('report.history.new.none'))}`
        : folded(`<h3 id="history-new">${escapeHtml(p.t('report.history.new.title'))} (${fresh.length})</h3>`, list(fresh, ''), fresh.length),
      `<h3 id="history-fixed">${escapeHtml(p.t('report.history.fixed.title'))} (${fixed.length})</h3>`,
      ...(fixed.length > 0 ? [`<p>${escapeHtml(p.t('report.history.fixed.intro'))}</p>`] : []),
      list(fixed, p.t('report.history.fixed.none')),
    );
  }
  if (dismissed.length > 0) parts.push(`<p><a href="#dismissed">${escapeHtml(p.t('report.history.dismissed-count', { count: dismissed.length }))}</a></p>`);
  return `<section id="history" aria-labelledby="history-title"><h2 id="history-title">${escapeHtml(p.t('report.history.title'))}</h2>
${parts.join('\n')}</section>`;
}

/** At most this many places are named in one sentence (a course's units and its six course-wide parts); the rest are counted. */
const PLACES_NAMED = 12;

/** Places of the course in a sentence: module titles as course text, course-wide parts by name. */
function placesHtml(ctx: Context, all: readonly CoveredPlace[]): string {
  const { p } = ctx;
  const places = withoutSubModules(ctx.report, all);
  const names = places.slice(0, PLACES_NAMED).map((place) => ('module' in place ? courseText(moduleTitle(p, place.module, place.title)) : escapeHtml(p.t('report.scope', { scope: place.scope }))));
  if (places.length > PLACES_NAMED) names.push(escapeHtml(p.t('report.places.more', { count: places.length - PLACES_NAMED })));
  return names.length === 0 ? escapeHtml(p.t('report.scopes.none')) : listHtml(p, names);
}

/**
 * The places with a module's sub-modules left out where the module and all of them are listed: the
 * module's name stands for them, as in the module picker (known from this run's table of contents).
 */
function withoutSubModules(report: Report, places: readonly CoveredPlace[]): CoveredPlace[] {
  const modules = places.flatMap((place) => ('module' in place ? [place] : []));
  const listed = new Set(modules.map((place) => place.module));
  const parentOf = new Map<number, number | null>(report.modules.map((module) => [module.moduleId, module.parentModuleId]));
  for (const place of modules) if (place.parent !== undefined) parentOf.set(place.module, place.parent);
  const childrenOf = (id: number) => [...parentOf.entries()].filter(([, parent]) => parent === id).map(([child]) => child);
  const standsFor = (id: number): boolean => {
    const parent = parentOf.get(id);
    return parent !== undefined && parent !== null && listed.has(parent) && childrenOf(parent).every((child) => listed.has(child));
  };
  return places.filter((place) => !('module' in place) || !standsFor(place.module));
}

/**
 * What the comparison covered: the places both runs read (and which older run a place was compared
 * with when the last run left it out), and the places read for the first time.
 */
function coverageLines(ctx: Context): string[] {
  const { p, report } = ctx;
  const comparison = report.comparison!;
  const previous = comparison.previous!;
  const lines: string[] = [];
  if (comparison.compared.length === 0) lines.push(escapeHtml(p.t('report.history.compared-on.none')));
  else if (comparedOnAll(comparison)) lines.push(escapeHtml(p.t('report.history.compared-on.all')));
  else lines.push(messageHtml(p, 'report.history.compared-on', {}, { places: placesHtml(ctx, comparison.compared.map((entry) => entry.place)) }));
  // Places the last run did not read, compared with the older run that last did, one line per run.
  const older = new Map<string, CoveredPlace[]>();
  for (const entry of comparison.compared) {
    if (entry.run.finishedAt === previous.finishedAt) continue;
    older.set(entry.run.finishedAt, [...(older.get(entry.run.finishedAt) ?? []), entry.place]);
  }
  for (const [finishedAt, places] of older) lines.push(messageHtml(p, 'report.history.compared-older', { date: `${when(p, finishedAt)} UTC` }, { places: placesHtml(ctx, places) }));
  if (comparison.firstRead.length > 0) lines.push(messageHtml(p, 'report.history.first-read', {}, { places: placesHtml(ctx, comparison.firstRead) }));
  return lines.map((line) => `<p>${line}</p>`);
}

/** The findings dismissed for the course: apart and out of every count, with who, when and why. */
function renderDismissed(ctx: Context): string {
  const { p, report } = ctx;
  const dismissed = report.dismissed ?? [];
  if (dismissed.length === 0) return '';
  const items = dismissed.map((finding) => {
    const { by, at, reason } = finding.dismissal;
    const why = `${p.t('report.history.dismissed.by', { by: p.value(by), date: `${when(p, at)} UTC` })}${reason === undefined ? '' : ` ${p.t('report.history.dismissed.reason', { reason: p.value(reason) })}`}`;
    return renderHistoryFinding(ctx, finding, `<p class="hint" data-fingerprint="${escapeHtml(finding.fingerprint)}">${escapeHtml(why)}</p>`);
  });
  return `<section id="dismissed" aria-labelledby="dismissed-title"><h2 id="dismissed-title">${escapeHtml(p.t('report.history.dismissed.title'))} (${dismissed.length})</h2>
<p>${escapeHtml(p.t('report.history.dismissed.intro'))}</p>
<ul class="findings">${items.join('\n')}</ul></section>`;
}

/** What the run could not read or check as a whole (a route the site does not offer...). */
const PROTOCOL_STATUS_KEY = { pass: 'pass', fail: 'fail', 'needs-person': 'person', 'n/a': 'na' } as const;

/** One protocol item: its status, what it is, and what decided it (the findings, or a person's answer). */
function renderProtocolItem(ctx: Context, item: ReportProtocolItem): string {
  const { p, report } = ctx;
  const status = PROTOCOL_STATUS_KEY[item.status];
  const lines: string[] = [];
  if (item.kind === 'auto') {
    lines.push(`<p class="spread">${escapeHtml(p.t('report.protocol.findings', { count: item.findings.length, allow: item.allow ?? 0 }))} · <span class="check-id">${escapeHtml((item.checks ?? []).join(', '))}</span></p>`);
    if (item.status === 'fail') {
      const byFingerprint = new Map(report.findings.map((finding) => [finding.fingerprint, finding]));
      const links = item.findings.flatMap((fingerprint) => {
        const finding = byFingerprint.get(fingerprint);
        if (finding === undefined) return [];
        return [`<li><a href="#finding-${escapeHtml(fingerprint)}">${escapeHtml(p.title(finding.check))}</a> · ${placeLabel(ctx, { ...finding, key: '', count: 1 })}</li>`];
      });
      if (links.length > 0) lines.push(folded(escapeHtml(p.t('report.protocol.findings', { count: item.findings.length, allow: item.allow ?? 0 })), `<ul class="places">${links.join('')}</ul>`, links.length));
    }
  } else if (item.answer !== undefined) {
    lines.push(`<p class="spread">${escapeHtml(p.t('report.protocol.answered', { by: p.value(item.answer.by), date: `${when(p, item.answer.at)} UTC` }))}</p>`);
    if (item.answer.note !== undefined) lines.push(`<p>${escapeHtml(p.t('report.protocol.note', { note: p.value(item.answer.note) }))}</p>`);
  }
  return `<li class="protocol-item ${status}"><p class="finding-head"><span class="badge protocol-${status}">${escapeHtml(p.t('report.protocol.status', { status }))}</span><span class="finding-title">${courseText(item.title)}</span> <span class="check-id">${escapeHtml(item.id)} · ${escapeHtml(p.t('report.protocol.kind', { kind: item.kind }))} · ×${escapeHtml(new Intl.NumberFormat(bcp47Of(p.language)).format(item.weight))}</span></p>${lines.join('')}</li>`;
}

/** The report opens with the client's protocol: the readiness score, then every item. */
function renderProtocol(ctx: Context): string {
  const { p } = ctx;
  const protocol: ReportProtocol | undefined = ctx.report.protocol;
  if (protocol === undefined) return '';
  const count = (status: ReportProtocolItem['status']) => protocol.items.filter((item) => item.status === status).length;
  const score = protocol.score === null ? p.t('report.protocol.score-none') : p.t('report.protocol.score', { score: protocol.score });
  const ready = protocol.ready === undefined ? p.t('report.protocol.not-ready') : p.t('report.protocol.ready', { by: p.value(protocol.ready.by), date: `${when(p, protocol.ready.at)} UTC` });
  return `<section id="protocol" aria-labelledby="protocol-title"><h2 id="protocol-title">${escapeHtml(p.t('report.protocol.title'))}</h2>
<p class="lead"><span>${escapeHtml(p.t('report.protocol.name', { name: p.value(protocol.name), version: protocol.version }))}</span><strong class="protocol-score">${escapeHtml(score)}</strong></p>
<p>${escapeHtml(p.t('report.protocol.counts', { pass: count('pass'), fail: count('fail'), person: count('needs-person'), na: count('n/a') }))} ${escapeHtml(ready)}</p>
<p class="hint">${escapeHtml(p.t('report.protocol.intro'))}</p>
<ol class="findings protocol">
${protocol.items.map((item) => renderProtocolItem(ctx, item)).join('\n')}
</ol></section>
`;
}

function renderNotes(ctx: Context): string {
  const { p, report } = ctx;
  if (report.notes.length === 0) return '';
  return `<section id="notes" aria-labelledby="notes-title"><h2 id="notes-title">${escapeHtml(p.t('report.notes.title'))}</h2>
<ul>${report.notes.map((note) => `<li>${escapeHtml(note.message)}</li>`).join('\n')}</ul></section>`;
}

function renderChart(ctx: Context): string {
  const { p, report } = ctx;
  const rows = report.modules.map((module) => {
    const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
    for (const item of report.findings) if (item.moduleId === module.moduleId) counts[item.severity]++;
    return { module, counts, total: counts.error + counts.warning + counts.info };
  });
  const max = Math.max(1, ...rows.map((row) => row.total));
  const body = rows.map(({ module, counts, total }) => {
    const present = SEVERITIES.filter((severity) => counts[severity] > 0);
    const bars = present.map((severity) => `<span class="${severity}" style="width: ${((counts[severity] / max) * 100).toFixed(1)}%"></span>`).join('');
    const numbers = total === 0 ? p.t('report.chart.none') : p.list(present.map((severity) => p.t(`report.count.${severity}`, { count: counts[severity] })));
    return `<tr><th scope="row" class="depth-${Math.min(module.depth, 3)}"><a href="#module-${module.moduleId}">${courseText(moduleTitle(p, module.moduleId, module.title))}</a></th><td class="bar" aria-hidden="true">${bars}</td><td class="numbers">${escapeHtml(numbers)}</td></tr>`;
  });
  return `<table class="chart"><caption>${escapeHtml(p.t('report.chart.caption'))}</caption>
<colgroup><col class="col-module"><col class="col-bar"><col class="col-numbers"></colgroup>
<thead><tr><th scope="col">${escapeHtml(p.t('report.chart.module'))}</th><td class="bar" aria-hidden="true"></td><th scope="col">${escapeHtml(p.t('report.chart.findings'))}</th></tr></thead>
<tbody>${body.join('\n')}</tbody></table>`;
}

/** How accessibility was checked, for the header's facts (in the report's language already). */
/** How many items were judged now and how many verdicts were reused, from when: said only when some were. */
function reuseMeta(ctx: Context): string {
  const { reuse } = ctx.report;
  if (reuse === undefined || reuse.reused === 0 || reuse.since === null) return '';
  const { p } = ctx;
  return `<dt>${escapeHtml(p.t('report.meta.reuse'))}</dt><dd>${escapeHtml(p.t('report.meta.reuse-value', { checked: reuse.checked, reused: reuse.reused, date: when(p, reuse.since) }))}</dd>`;
}

/** The small line under an item whose verdict an earlier run made (the oldest, when it has several parts). */
function reusedNote(ctx: Context, matches: (item: NonNullable<Report['reuse']>['items'][number]) => boolean): string {
  const times = (ctx.report.reuse?.items ?? []).filter(matches).map((item) => item.checkedAt).sort();
  if (times.length === 0) return '';
  return `<small class="hint reused">${escapeHtml(ctx.p.t('report.reused', { date: when(ctx.p, times[0]!) }))}</small>`;
}

function accessibilityMeta(ctx: Context): string {
  const { accessibility } = ctx.report;
  if (accessibility === undefined) return '';
  return `<dt>${escapeHtml(ctx.p.t('report.meta.accessibility'))}</dt><dd>${escapeHtml(accessibility.summary)}</dd>`;
}

/** What the accessibility checks could not cover, said where the reader starts. */
function accessibilityNotes(ctx: Context): string {
  const { accessibility } = ctx.report;
  if (accessibility === undefined) return '';
  const notes = [...(accessibility.note === undefined ? [] : [accessibility.note]), ...accessibility.ruleErrorNotes];
  return notes.map((note) => `<p class="a11y-note">${escapeHtml(note)}</p>`).join('\n');
}

/** Where each card of the summary leads: the part of the report that tells its count. */
interface SummaryTargets {
  error: string;
  findings: string;
  notScanned: string | null;
  documents: string | null;
}

function renderSummary(ctx: Context, targets: SummaryTargets): string {
  const { p, report } = ctx;
  const { totals } = report;
  const tile = (className: string, value: string, label: string, target: string | null) => {
    const body = `<strong>${escapeHtml(value)}</strong><span class="label">${escapeHtml(label)}</span>`;
    return `<li${className ? ` class="${className}"` : ''}>${target === null ? body : `<a href="#${target}">${body}</a>`}</li>`;
  };
  const number = (value: number) => new Intl.NumberFormat(bcp47Of(p.language)).format(value);
  const tiles = [
    ...SEVERITIES.map((severity) => tile(severity, number(totals.findings[severity]), p.t(`report.total.${severity}`, { count: totals.findings[severity] }), severity === 'error' ? targets.error : targets.findings)),
    tile('', p.t('report.total.scanned-value', { scanned: totals.scanned, topics: totals.topics }), p.t('report.total.scanned'), targets.findings),
    tile('', number(totals.notScanned), p.t('report.total.not-scanned'), targets.notScanned),
    ...(totals.documents > 0 ? [tile('', number(totals.documents), p.t('report.total.documents'), targets.documents)] : []),
    tile('', number(totals.links), p.t('report.total.links'), targets.findings),
    ...(totals.linksNotCheckable > 0 ? [tile('', number(totals.linksNotCheckable), p.t('report.total.links-not-checkable'), null)] : []),
  ];
  // The chart lists every module: folded on a long course, so "Fix first" is near on a phone too.
  const chart = report.modules.length === 0 ? '' : report.modules.length > FOLD_AFTER ? folded(escapeHtml(p.t('report.chart.caption')), renderChart(ctx), report.modules.length) : renderChart(ctx);
  return `<section id="summary" aria-labelledby="summary-title">
<h2 id="summary-title">${escapeHtml(p.t('report.summary.title'))}</h2>
<p class="lead">${summarySentences(p, report).map((sentence) => `<span>${escapeHtml(sentence)}</span>`).join(' ')}</p>
${renderNotScannedList(ctx)}
<ul class="totals">
${tiles.join('\n')}
</ul>
${totals.findings.error > 0 ? `<p class="jump"><a href="#fix-first">${escapeHtml(p.t('report.fix-first.jump', { count: totals.findings.error }))}</a></p>` : ''}
${chart}
</section>`;
}

/** What could not be scanned, named and linked to its place: the summary's count says which. */
function renderNotScannedList(ctx: Context): string {
  const { p, report } = ctx;
  if (report.notScanned.length === 0) return '';
  const items = report.notScanned.map((entry) => {
    const label = placeLabel(ctx, { ...entry, key: '', count: 1 });
    // An item inside a topic (a document it links to) is named after the place too.
    const own = entry.title !== '' && entry.title !== entry.topicTitle && entry.title !== entry.itemTitle ? ` › ${courseText(entry.title)}` : '';
    return `<li><a href="#${placeKey(entry)}">${label}${own}</a>: ${escapeHtml(entry.reason)}</li>`;
  });
  return `<div id="not-scanned">${folded(escapeHtml(p.t('report.not-scanned.list', { count: report.notScanned.length })), `<ul class="places">${items.join('')}</ul>`, items.length)}</div>`;
}

function renderFilters(ctx: Context, checks: string[]): string {
  const { p, report } = ctx;
  if (report.findings.length === 0) return '';
  const checkCounts = new Map<string, number>();
  for (const item of report.findings) checkCounts.set(item.check, (checkCounts.get(item.check) ?? 0) + 1);
  const box = (id: string, label: string) => `<label><input type="checkbox" id="${id}" checked> <span>${label}</span></label>`;
  return `<section class="filters" aria-labelledby="filters-title">
<h2 id="filters-title">${escapeHtml(p.t('report.filters.title'))}</h2>
<fieldset><legend>${escapeHtml(p.t('report.filters.severity'))}</legend>
${SEVERITIES.map((severity) => box(`show-${severity}`, escapeHtml(p.t('report.filters.count', { label: p.t(`report.severity.${severity}`), count: report.totals.findings[severity] })))).join('\n')}
</fieldset>
<fieldset><legend>${escapeHtml(p.t('report.filters.checks'))}</legend>
${checks.map((check, index) => box(`show-check-${index}`, `${escapeHtml(p.t('report.filters.count', { label: p.title(check), count: checkCounts.get(check) ?? 0 }))} <span class="check-id">${escapeHtml(check)}</span>`)).join('\n')}
</fieldset>
</section>`;
}

function filterStyles(checks: string[]): string {
  const rules = SEVERITIES.map((severity) => `body:has(#show-${severity}:not(:checked)) .finding[data-severity="${severity}"] { display: none; }`);
  checks.forEach((_, index) => rules.push(`body:has(#show-check-${index}:not(:checked)) .finding[data-check-index="${index}"] { display: none; }`));
  return rules.join('\n');
}

export function renderHtmlReport(report: Report): string {
  const p = presenterFor(report.language, { isolate: true });
  const checks = [...new Set(report.findings.map((item) => item.check))].sort();
  const groups = repeatedGroups(report.findings);
  const repeatedOf = new Map<ReportFinding, RepeatedGroup>();
  for (const group of groups) for (const finding of group.findings) repeatedOf.set(finding, group);
  const linked = new Set((report.protocol?.items ?? []).filter((item) => item.status === 'fail').flatMap((item) => item.findings));
  const ctx: Context = { p, report, checkIndex: new Map(checks.map((check, index) => [check, index])), repeatedOf, linked };

  const course = report.courseName === undefined ? p.t('report.course-unnamed', { orgUnitId: String(report.orgUnitId) }) : p.value(report.courseName);
  const client = p.value(report.client);
  const tested = new Set(report.modules.map((module) => module.moduleId));
  const inModules = (entry: { moduleId: number | null }) => entry.moduleId !== null && tested.has(entry.moduleId);
  const scopes = report.scopes.length === 0 ? p.t('report.scopes.none') : p.list(report.scopes.map((scope) => p.t('report.scope', { scope })));
  const sections = [
    ...(report.protocol === undefined ? [] : [['protocol', p.t('report.protocol.title')]]),
    ['summary', p.t('report.summary.title')],
    ['fix-first', p.t('report.fix-first.title')],
    ...(report.comparison === undefined ? [] : [['history', p.t('report.history.title')]]),
    ...(groups.length > 0 ? [['repeated', p.t('report.repeated.title')]] : []),
    ['findings', p.t('report.findings.title')],
    ...(report.findings.some((item) => !inModules(item)) || report.notScanned.some((item) => !inModules(item)) ? [['course-wide', p.t('report.course-wide.title')]] : []),
    ...(report.documents.length > 0 ? [['documents', p.t('report.documents.title', { count: report.documents.length })]] : []),
    ...((report.dismissed ?? []).length > 0 ? [['dismissed', p.t('report.history.dismissed.title')]] : []),
    ...(report.notes.length > 0 ? [['notes', p.t('report.notes.title')]] : []),
  ];

  return `<!doctype html>
<html lang="${escapeHtml(bcp47Of(report.language))}" dir="${directionOf(report.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeAttribute(p.t('report.document-title', { client, course }))}</title>
<style>${REPORT_STYLE}${report.protocol === undefined ? '' : PROTOCOL_STYLE}
${filterStyles(checks)}</style>
</head>
<body>
<header>
<p class="tool">${escapeHtml(p.t('report.tool'))}</p>
<h1>${escapeHtml(p.t('report.heading', { client, course }))}</h1>
<dl class="meta">
<dt>${escapeHtml(p.t('report.meta.client'))}</dt><dd>${courseText(report.client)}</dd>
<dt>${escapeHtml(p.t('report.meta.site'))}</dt><dd>${linkTo(report.siteUrl)}</dd>
<dt>${escapeHtml(p.t('report.meta.course'))}</dt><dd>${escapeHtml(p.t('report.meta.course-value', { course, orgUnitId: String(report.orgUnitId) }))}</dd>
<dt>${escapeHtml(p.t('report.meta.run'))}</dt><dd>${escapeHtml(p.t('report.meta.run-value', { start: when(p, report.startedAt), end: when(p, report.finishedAt), duration: duration(p, report.startedAt, report.finishedAt) }))}</dd>
<dt>${escapeHtml(p.t('report.meta.modules'))}</dt><dd>${escapeHtml(new Intl.NumberFormat(bcp47Of(p.language)).format(report.modules.length))}</dd>
<dt>${escapeHtml(p.t('report.meta.scopes'))}</dt><dd>${escapeHtml(scopes)}</dd>
${accessibilityMeta(ctx)}${reuseMeta(ctx)}
</dl>
${accessibilityNotes(ctx)}
<nav class="sections" aria-label="${escapeHtml(p.t('report.nav.label'))}"><ul>${sections.map(([id, label]) => `<li><a href="#${id}">${escapeHtml(label)}</a></li>`).join('')}</ul></nav>
</header>
<main>
${renderProtocol(ctx)}${renderSummary(ctx, { error: 'fix-first', findings: 'findings', notScanned: report.notScanned.length > 0 ? 'not-scanned' : null, documents: report.documents.length > 0 ? 'documents' : null })}
${renderFixFirst(ctx)}
${renderHistory(ctx)}
${renderFilters(ctx, checks)}
${renderRepeated(ctx, groups)}
<section id="findings" aria-labelledby="findings-title">
<h2 id="findings-title">${escapeHtml(p.t('report.findings.title'))}</h2>
${report.findings.length === 0 ? `<p>${escapeHtml(p.t('report.findings.none'))}</p>` : ''}
${report.modules
  .map((module) =>
    renderModule(
      ctx,
      module,
      report.findings.filter((item) => item.moduleId === module.moduleId),
      report.notScanned.filter((item) => item.moduleId === module.moduleId),
    ),
  )
  .join('\n')}
</section>
${renderCourseWide(ctx, report.findings.filter((item) => !inModules(item)), report.notScanned.filter((item) => !inModules(item)))}
${renderDocuments(ctx)}
${renderDismissed(ctx)}
${renderNotes(ctx)}
</main>
<footer>
<p>${escapeHtml(p.t('report.footer.written', { version: report.tool.version }))} ${escapeHtml(p.t('report.footer.severities'))}</p>
</footer>
</body>
</html>
`;
}
