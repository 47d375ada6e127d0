// Signing off a finished run (issue: "Signed off"): its protocol as its report scored it, with the
// answers given to its manual items since; a person's answer to one of them, kept for the course so
// the next run carries it; and the run marked ready for launch, refused while an item fails or needs
// a person. Each change writes the run's report again, so its HTML, JSON and CSV say the same.
import { AppError } from '../errors.ts';
import { msg } from '../i18n/messages.ts';
import { isTerminal } from './job-status.ts';
import type { ManualAnswerStatus, ProtocolAnswer } from '../protocol/protocol-schema.ts';
import { itemKeyOf, readyForLaunch, reanswered } from '../protocol/score-protocol.ts';
import type { Report, ReportProtocol } from '../report/model.ts';
import { renderCsvReport } from '../report/render-csv.ts';
import { renderHtmlReport } from '../report/render-html.ts';
import { renderJsonReport } from '../report/render-json.ts';
import type { JobRecord, ProtocolStore, ReportStore, SignOff } from './types.ts';

export interface SignOffParts {
  protocols: ProtocolStore;
  reports: ReportStore;
}

/** A run's protocol as it stands now: the report's, re-decided by the answers since, and its sign-off. */
export interface RunProtocol {
  protocol: ReportProtocol;
  /** Every item passes or does not apply, so the run may be marked ready. */
  canSignOff: boolean;
}

const courseOf = (job: JobRecord) => ({ siteUrl: job.siteUrl, orgUnitId: job.orgUnitId });

async function reportOf(job: JobRecord, parts: SignOffParts): Promise<Report & { protocol: ReportProtocol }> {
  if (job.status !== 'SUCCEEDED') throw new AppError('invalid_input', msg(isTerminal(job.status) ? 'error.protocol.not-scored' : 'error.protocol.not-finished'));
  const text = await parts.reports.get(job.filename, 'json');
  if (text === undefined) throw new AppError('not_found', msg('error.protocol.report-gone'));
  const report = JSON.parse(text) as Report;
  if (report.protocol === undefined) throw new AppError('invalid_input', msg('error.protocol.not-scored'));
  return report as Report & { protocol: ReportProtocol };
}

async function currentOf(job: JobRecord, report: Report & { protocol: ReportProtocol }, parts: SignOffParts): Promise<ReportProtocol> {
  const [answers, signOffs] = await Promise.all([parts.protocols.answers(job.owner, courseOf(job)), parts.protocols.signOffs(job.owner, [job.id])]);
  const { ready: _written, ...scored } = reanswered(report.protocol, answers);
  const ready = signOffs.get(job.id);
  return ready === undefined ? scored : { ...scored, ready };
}

const viewOf = (protocol: ReportProtocol): RunProtocol => ({ protocol, canSignOff: readyForLaunch(protocol) });

/** The run's report written again with its protocol as it stands now. */
async function rewrite(job: JobRecord, report: Report, protocol: ReportProtocol, parts: SignOffParts): Promise<void> {
  const updated: Report = { ...report, protocol };
  await parts.reports.put(job.filename, { html: renderHtmlReport(updated), json: renderJsonReport(updated), csv: renderCsvReport(updated) });
}

export async function runProtocol(job: JobRecord, parts: SignOffParts): Promise<RunProtocol> {
  const report = await reportOf(job, parts);
  return viewOf(await currentOf(job, report, parts));
}

export interface AnswerInput {
  itemId: string;
  status: ManualAnswerStatus;
  note?: string;
}

/** Keeps a person's answer to one of the run's manual items, for this run and the course's next ones. */
export async function answerItem(job: JobRecord, input: AnswerInput, by: SignOff, parts: SignOffParts): Promise<RunProtocol> {
  const report = await reportOf(job, parts);
  const item = report.protocol.items.find((entry) => entry.kind === 'manual' && entry.id === input.itemId);
  if (item === undefined) throw new AppError('invalid_input', msg('error.protocol.no-item', { item: `"${input.itemId.slice(0, 64)}"` }));
  const answer: ProtocolAnswer = { itemId: item.id, itemKey: itemKeyOf(item), status: input.status, ...(input.note === undefined ? {} : { note: input.note }), by: by.by, at: by.at };
  await parts.protocols.putAnswer(job.owner, courseOf(job), answer, job.id);
  const protocol = await currentOf(job, report, parts);
  await rewrite(job, report, protocol, parts);
  return viewOf(protocol);
}

/** Marks the run ready for launch, with who and when; refused while an item fails or needs a person. */
export async function signOffRun(job: JobRecord, by: SignOff, parts: SignOffParts): Promise<RunProtocol> {
  const report = await reportOf(job, parts);
  const current = await currentOf(job, report, parts);
  if (!readyForLaunch(current)) {
    const count = (status: string) => current.items.filter((item) => item.status === status).length;
    throw new AppError('invalid_input', msg('error.protocol.not-ready', { fail: count('fail'), person: count('needs-person') }));
  }
  await parts.protocols.signOff(job.owner, job.id, by);
  const protocol = { ...current, ready: by };
  await rewrite(job, report, protocol, parts);
  return viewOf(protocol);
}
