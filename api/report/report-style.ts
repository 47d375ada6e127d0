// The HTML report's style sheet, inlined into the report (no external asset). Logical properties
// (inline-start/end) so that a right-to-left report mirrors itself; everything wraps, so a phone
// 390 px wide never scrolls sideways; colours meet WCAG AA contrast on white.
export const REPORT_STYLE = `
:root { color-scheme: light; --error: #b3261e; --warning: #8a5300; --info: #1f5fa8; --muted-bg: #4a5058; --line: #d9dde3; --muted: #555d66; --text: #1b1f24; --link: #0b57d0; --soft: #f4f6f8; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Arabic", sans-serif; color: var(--text); background: #fff; overflow-wrap: anywhere; }
header, main, footer { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem; }
header { border-block-end: 3px solid var(--text); }
a { color: var(--link); }
a:focus-visible, input:focus-visible, summary:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
.tool { margin: 0; color: var(--muted); font-size: .85rem; letter-spacing: .04em; text-transform: uppercase; }
h1 { margin: .2rem 0 .6rem; font-size: 1.6rem; line-height: 1.25; }
h2 { margin: 2rem 0 .8rem; font-size: 1.3rem; border-block-end: 1px solid var(--line); padding-block-end: .3rem; }
h3 { margin: 1.4rem 0 .4rem; font-size: 1.12rem; }
h4 { margin: .2rem 0 .4rem; font-size: 1rem; }
.meta { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .2rem 1rem; margin: 0; }
.meta dt { font-weight: 600; } .meta dd { margin: 0; }
.sections { margin: .8rem 0 0; }
.sections ul { display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; list-style: none; margin: 0; padding: 0; }
.lead { font-size: 1.08rem; margin: 0 0 .9rem; }
.lead span { display: block; }
.totals { display: flex; flex-wrap: wrap; gap: .6rem; list-style: none; padding: 0; margin: 0 0 1rem; }
.totals li { border: 1px solid var(--line); border-radius: .4rem; padding: .45rem .8rem; min-width: 7.5rem; flex: 1 1 7.5rem; }
.totals strong { display: block; font-size: 1.45rem; font-variant-numeric: tabular-nums; }
.totals .error strong { color: var(--error); } .totals .warning strong { color: var(--warning); } .totals .info strong { color: var(--info); }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
caption { text-align: start; color: var(--muted); font-size: .85rem; letter-spacing: .04em; text-transform: uppercase; padding-block-end: .3rem; }
th, td { text-align: start; vertical-align: top; padding: .35rem .5rem; border-block-end: 1px solid var(--line); }
.chart .col-module { width: 42%; } .chart .col-bar { width: 30%; } .chart .col-numbers { width: 28%; }
.chart .depth-1 { padding-inline-start: 1.5rem; } .chart .depth-2 { padding-inline-start: 2.5rem; } .chart .depth-3 { padding-inline-start: 3.5rem; }
.bar span { display: inline-block; height: .9rem; vertical-align: middle; }
.bar .error { background: var(--error); } .bar .warning { background: var(--warning); } .bar .info { background: var(--info); }
.numbers { color: var(--muted); font-variant-numeric: tabular-nums; }
.badge { display: inline-block; font-size: .75rem; font-weight: 700; text-transform: uppercase; letter-spacing: .03em; border-radius: .25rem; padding: .05rem .45rem; color: #fff; background: var(--muted-bg); margin-inline-end: .4rem; }
.badge.error { background: var(--error); } .badge.warning { background: var(--warning); } .badge.info { background: var(--info); }
.check-id { color: var(--muted); font-size: .78rem; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 400; }
.fix-first { padding-inline-start: 1.4rem; margin: 0; }
.fix-first > li { margin: 0 0 1.1rem; padding-inline-start: .2rem; }
.fix-first h3 { margin: 0 0 .2rem; }
.fix-first p { margin: .15rem 0; }
.places { margin: .3rem 0 0; padding-inline-start: 1.2rem; }
.places li { margin-block: .35rem; }
.places .place-fix { display: block; color: var(--muted); font-size: .92em; }
.spread { color: var(--muted); }
.filters fieldset { border: 1px solid var(--line); border-radius: .4rem; margin: 0 0 .6rem; min-width: 0; }
.filters label { display: inline-flex; gap: .45rem; align-items: center; margin-block: .2rem; margin-inline-end: 1rem; max-width: 100%; }
.filters input { flex: none; width: 1.5rem; height: 1.5rem; margin: 0; accent-color: var(--link); }
.module { margin-inline-start: 0; }
.module.depth-1 { margin-inline-start: min(1.2rem, 3vw); } .module.depth-2 { margin-inline-start: min(2.4rem, 6vw); } .module.depth-3 { margin-inline-start: min(3.6rem, 9vw); }
.topic, .item { border-inline-start: 3px solid var(--line); padding-inline-start: .8rem; margin: .8rem 0; }
.findings { list-style: none; padding: 0; margin: .3rem 0; }
.finding { padding: .5rem 0; border-block-start: 1px dashed var(--line); }
.finding:first-child { border-block-start: 0; }
.finding-head { margin: 0 0 .25rem; }
.finding-title { font-weight: 600; }
.finding dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .1rem .8rem; margin: 0; }
.finding dt { color: var(--muted); font-weight: 600; font-size: .9rem; }
.finding dd { margin: 0; }
.status-new { display: inline-block; font-size: .75rem; font-weight: 700; border: 1px solid var(--text); border-radius: .25rem; padding: 0 .35rem; margin-inline-end: .4rem; }
.address { font-size: .92em; }
details { margin: .3rem 0 0; font-size: .88rem; }
summary { cursor: pointer; color: var(--muted); }
details.more { font-size: inherit; margin: .3rem 0 .6rem; }
details.more > summary { color: var(--link); }
details.more > summary h3 { display: inline; font-size: 1rem; }
/* A folded chart's summary already says what it is: its caption stays for screen readers only. */
details.more > .chart > caption { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.totals a { display: block; color: inherit; text-decoration: none; }
.totals a:hover .label, .totals a:focus-visible .label { text-decoration: underline; }
.jump { margin: 0 0 1rem; font-weight: 600; }
details.html code { display: block; white-space: pre-wrap; background: var(--soft); padding: .4rem .5rem; border-radius: .25rem; font-size: .85rem; }
.not-scanned { background: var(--soft); border-radius: .3rem; padding: .5rem .7rem; margin: .4rem 0; }
.not-scanned p { margin: .1rem 0; }
.hint { color: var(--muted); font-size: .9rem; }
.clean { color: var(--muted); margin: .6rem 0; }
.a11y-note { margin: .8rem 0 0; padding: .5rem .8rem; border-inline-start: 4px solid var(--warning); background: #fff8e6; }
footer { color: var(--muted); font-size: .85rem; border-block-start: 1px solid var(--line); margin-block-start: 2rem; }
@media (max-width: 40rem) {
  header, main, footer { padding: .8rem 1rem; }
  h1 { font-size: 1.35rem; }
  .meta, .finding dl { grid-template-columns: minmax(0, 1fr); }
  .meta dd, .finding dd { margin-block-end: .35rem; }
  .chart .col-bar, .chart .bar { display: none; }
  .chart .col-module { width: 58%; } .chart .col-numbers { width: 42%; }
}
@media print {
  body { font-size: 10.5pt; }
  header, main, footer { max-width: none; padding: 0; }
  .filters, .sections { display: none; }
  .finding { display: block !important; break-inside: avoid; }
  .topic, .item, .fix-first > li { break-inside: avoid-page; }
  h2, h3, h4 { break-after: avoid; }
  a { color: inherit; }
  .badge { border: 1px solid currentColor; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  /* A folded list prints unfolded (where the browser can open it for print). */
  details::details-content { content-visibility: visible; display: contents; }
}
`;

/** The protocol section's own rules, added only to reports that have one. */
export const PROTOCOL_STYLE = `
.protocol-score { display: block; font-size: 1.45rem; }
.badge.protocol-pass { background: #1e6b34; } .badge.protocol-fail { background: var(--error); } .badge.protocol-person { background: var(--warning); }
.protocol-item { padding: .5rem 0; border-block-start: 1px dashed var(--line); }
`;
