// A finished run's JSON twin (outputUrl + filename + '.json'), read for the findings view. The
// address carries its own permission (the report capability), so no token goes with it. Read the
// tolerant way, as every answer is: a finding that cannot be read is left out.
import * as z from 'zod/mini';
import { kept, listOf } from '@contract';

const text = z.string();
/** Text, or null when it is absent or not text. */
const textOrNull = z.catch(z.nullable(text), null);

function webAddress(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

const reportFinding = z.object({
  fingerprint: text.check(z.regex(/^[0-9a-f]{20}$/)),
  check: text,
  severity: z.enum(['error', 'warning', 'info']),
  message: text,
  moduleId: z.catch(z.nullable(z.number()), null),
  moduleTitle: textOrNull,
  topicId: z.catch(z.nullable(z.number()), null),
  topicTitle: textOrNull,
  itemType: textOrNull,
  itemId: z.catch(z.nullable(z.number()), null),
  itemTitle: textOrNull,
  /** An `info` finding a person must look at ("Needs review"). */
  review: z.catch(z.boolean(), false),
  /** Only a web address (http or https); anything else is left out. */
  url: z.catch(z.pipe(text, z.transform(webAddress)), null),
  linkText: kept(text.check(z.minLength(1))),
  status: kept(z.enum(['new', 'open'])),
  /** Set when it was dismissed at the time of the run. */
  dismissal: kept(z.object({ by: text, at: text, reason: kept(text) })),
});

// Only `findings` must be there; the other parts of an older or damaged report read as empty.
const runReport = z.object({
  /** The language the report's texts are written in (a BCP 47 tag). */
  language: z.catch(text, 'en'),
  modules: z.catch(listOf(z.object({ moduleId: z.number(), title: text })), []),
  findings: listOf(reportFinding),
  dismissed: z.catch(listOf(reportFinding), []),
});

export type ReportFinding = z.output<typeof reportFinding>;
export type Severity = ReportFinding['severity'];
export type RunReport = z.output<typeof runReport>;

export function parseRunReport(body: unknown): RunReport {
  const report = runReport.safeParse(body);
  if (!report.success) throw new Error('The report is not in the expected form.');
  return report.data;
}

export async function getRunReport(jsonUrl: string, signal?: AbortSignal): Promise<RunReport> {
  const response = await fetch(jsonUrl, { headers: { Accept: 'application/json' }, credentials: 'omit', ...(signal ? { signal } : {}) });
  if (!response.ok) throw new Error(`The report answered ${response.status}.`);
  return parseRunReport(await response.json());
}
