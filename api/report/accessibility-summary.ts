// The report's account of how accessibility was checked: in a browser or not, which rules were not
// run and which failed to run, as sentences of the catalogue in the report's language.
import type { AccessibilityCheckInfo } from '../a11y/a11y-runner.ts';
import type { Language } from '../i18n/languages.ts';
import { formatMessage, msg } from '../i18n/messages.ts';
import type { ReportAccessibility } from './model.ts';

export function accessibilityOfReport(info: AccessibilityCheckInfo, language: Language): ReportAccessibility {
  const text = (message: ReturnType<typeof msg>) => formatMessage(message, language);
  const ruleErrors = [...info.ruleErrors].map(([rule, items]) => ({ rule, items })).sort((a, b) => b.items - a.items || a.rule.localeCompare(b.rule));
  const enhanced = info.enhancedContrast ? 'yes' : 'no';
  const second = info.secondEngine === undefined ? '' : ` ${text(msg('report.a11y.second-engine', { engine: info.secondEngine.name, version: info.secondEngine.version }))}`;
  const summary =
    info.mode === 'browser'
      ? `${text(msg('report.a11y.browser', { axe: info.axeVersion, browser: info.browserVersion ?? '', enhanced }))}${second}`
      : text(msg('report.a11y.jsdom', { axe: info.axeVersion, rules: info.notRun.join(', ') }));
  const engineErrors = [...(info.engineErrors ?? [])].map(([engine, items]) => ({ engine, items })).sort((a, b) => b.items - a.items || a.engine.localeCompare(b.engine));
  const others = info.notRun.filter((rule) => rule !== 'color-contrast').length;
  return {
    mode: info.mode,
    axeVersion: info.axeVersion,
    ...(info.browserVersion === undefined ? {} : { browserVersion: info.browserVersion }),
    enhancedContrast: info.enhancedContrast,
    notRun: [...info.notRun],
    ruleErrors,
    ...(engineErrors.length === 0 ? {} : { engineErrors }),
    summary,
    ...(info.mode === 'jsdom' ? { note: text(msg('report.a11y.no-browser', { count: others })) } : {}),
    ruleErrorNotes: [
      ...engineErrors.map(({ engine, items }) => text(msg('report.a11y.engine-error', { engine, count: items }))),
      ...ruleErrors.map(({ rule, items }) => text(msg('report.a11y.rule-error', { rule, count: items }))),
    ],
  };
}
