// A finished run's JSON twin (outputUrl + filename + '.json'), read for the findings view. The
// address carries its own permission (the report capability), so no token goes with it.

export type Severity = 'error' | 'warning' | 'info';

export interface ReportFinding {
  fingerprint: string;
  check: string;
  severity: Severity;
  message: string;
  moduleId: number | null;
  moduleTitle: string | null;
  topicTitle: string | null;
  itemTitle: string | null;
  /** Only a web address (http or https); anything else is left out. */
  url: string | null;
  linkText?: string;
  status?: 'new' | 'open';
  /** Set when it was dismissed at the time of the run. */
  dismissal?: { by: string; at: string; reason?: string };
}

export interface RunReport {
  /** The language the report's texts are written in (a BCP 47 tag). */
  language: string;
  modules: { moduleId: number; title: string }[];
  findings: ReportFinding[];
  dismissed: ReportFinding[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const SEVERITIES: readonly string[] = ['error', 'warning', 'info'];
const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

function webAddress(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function findingOf(value: unknown): ReportFinding | null {
  if (!isRecord(value)) return null;
  const { fingerprint, check, severity, message, moduleId } = value;
  if (typeof fingerprint !== 'string' || !/^[0-9a-f]{20}$/.test(fingerprint)) return null;
  if (typeof check !== 'string' || typeof message !== 'string' || typeof severity !== 'string' || !SEVERITIES.includes(severity)) return null;
  const finding: ReportFinding = {
    fingerprint,
    check,
    severity: severity as Severity,
    message,
    moduleId: typeof moduleId === 'number' ? moduleId : null,
    moduleTitle: textOrNull(value.moduleTitle),
    topicTitle: textOrNull(value.topicTitle),
    itemTitle: textOrNull(value.itemTitle),
    url: webAddress(value.url),
  };
  if (typeof value.linkText === 'string' && value.linkText !== '') finding.linkText = value.linkText;
  if (value.status === 'new' || value.status === 'open') finding.status = value.status;
  const dismissal = value.dismissal;
  if (isRecord(dismissal) && typeof dismissal.by === 'string' && typeof dismissal.at === 'string') {
    finding.dismissal = { by: dismissal.by, at: dismissal.at, ...(typeof dismissal.reason === 'string' ? { reason: dismissal.reason } : {}) };
  }
  return finding;
}

export function parseRunReport(body: unknown): RunReport {
  if (!isRecord(body) || !Array.isArray(body.findings)) throw new Error('The report is not in the expected form.');
  const list = (value: unknown) => (Array.isArray(value) ? value.map(findingOf).filter((finding): finding is ReportFinding => finding !== null) : []);
  const modules = (Array.isArray(body.modules) ? body.modules : []).flatMap((module) =>
    isRecord(module) && typeof module.moduleId === 'number' && typeof module.title === 'string' ? [{ moduleId: module.moduleId, title: module.title }] : [],
  );
  return {
    language: typeof body.language === 'string' ? body.language : 'en',
    modules,
    findings: list(body.findings),
    dismissed: list(body.dismissed),
  };
}

export async function getRunReport(jsonUrl: string, signal?: AbortSignal): Promise<RunReport> {
  const response = await fetch(jsonUrl, { headers: { Accept: 'application/json' }, credentials: 'omit', ...(signal ? { signal } : {}) });
  if (!response.ok) throw new Error(`The report answered ${response.status}.`);
  return parseRunReport(await response.json());
}
