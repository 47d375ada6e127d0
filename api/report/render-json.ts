// The report's JSON twin: the report model as written, for scripts and other tools.
import type { Report } from './model.ts';

export function renderJsonReport(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
