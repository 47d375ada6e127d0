// The progress panel of a started run: which job and whose course, its status in words, how long
// it has run, what it is doing with a progress bar while it goes on, and a Cancel button (asked to
// confirm); once it has succeeded, what it found in one line and the report with its JSON and CSV
// twins; once it has failed, why (in the user's words and what to do) first.
import { useEffect, useId, useRef, useState } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { Dialog } from '@/components/dialog/dialog';
import { StatusBanner, type BannerTone } from '@/components/status-banner/status-banner';
import { ApiError } from '@/lib/api-client';
import { useBeforeUnload } from '@/lib/use-before-unload';
import { cancelJob } from '@/features/job-monitor/api/cancel-job';
import { getJobStatus, isKnownJobStatus, isTerminalJobStatus, type JobProgress, type JobStatusReport, type JobSummary } from '@/features/job-monitor/api/get-job-status';
import type { MonitoredJob } from '@/features/job-monitor/monitored-job';
import { useJobStatus } from '@/features/job-monitor/use-job-status';
import './job-monitor.css';

interface JobMonitorProps {
  job: MonitoredJob;
  pollIntervalMs: number;
  /** The run was just started here: bring the monitor into view and move focus to it. */
  focusOnStart?: boolean;
  /** Told when the job has reached SUCCEEDED or FAILED. */
  onFinished?: (taskArn: string, status: 'SUCCEEDED' | 'FAILED') => void;
}

function toneOf(status: string): BannerTone {
  if (status === 'SUCCEEDED') return 'success';
  if (status === 'FAILED') return 'error';
  return isKnownJobStatus(status) ? 'info' : 'neutral';
}

// Topics and links are counted; the short phases are only named, with a bar that says "busy".
const COUNTED_PHASES = { topics: 'job.phase.topics', links: 'job.phase.links' } as const;
const NAMED_PHASES = { 'sign-in': 'job.phase.signIn', contents: 'job.phase.contents', report: 'job.phase.report' } as const;

function ProgressLine({ progress }: { progress: JobProgress }) {
  const intl = useIntl();
  const id = useId();
  const { phase, done, total } = progress;
  if (phase !== undefined && phase in NAMED_PHASES) {
    return (
      <div className="job-monitor__progress">
        <label htmlFor={id}>{intl.formatMessage({ id: NAMED_PHASES[phase as keyof typeof NAMED_PHASES] })}</label>
        <progress id={id} />
      </div>
    );
  }
  const counted = phase === 'topics' || phase === 'links' ? COUNTED_PHASES[phase] : 'job.progress';
  return (
    <div className="job-monitor__progress">
      <label htmlFor={id}>{intl.formatMessage({ id: counted }, { done, total })}</label>
      <progress id={id} value={done} max={total} />
    </div>
  );
}

/** "Found 13 errors, 6 warnings and 2 notes in 11 of 15 topics. 4 could not be scanned…" */
function SummaryLine({ summary }: { summary: JobSummary }) {
  const intl = useIntl();
  const { findings } = summary;
  const counts = [
    findings.error > 0 && intl.formatMessage({ id: 'job.summary.errors' }, { count: findings.error }),
    findings.warning > 0 && intl.formatMessage({ id: 'job.summary.warnings' }, { count: findings.warning }),
    findings.info > 0 && intl.formatMessage({ id: 'job.summary.notes' }, { count: findings.info }),
  ].filter((text): text is string => typeof text === 'string');
  const list = intl.formatList(counts, { type: 'conjunction' });
  // A run of course-wide items alone read no topic: "in 0 of 0 topics" would say nothing true.
  const courseWideOnly = summary.topics === 0;
  const sentences = [
    counts.length === 0
      ? courseWideOnly
        ? intl.formatMessage({ id: 'job.summary.cleanCourseWide' })
        : intl.formatMessage({ id: 'job.summary.clean' }, { scanned: summary.scanned, topics: summary.topics })
      : courseWideOnly
        ? intl.formatMessage({ id: 'job.summary.foundCourseWide' }, { list })
        : intl.formatMessage({ id: 'job.summary.found' }, { list, scanned: summary.scanned, topics: summary.topics }),
    summary.notScanned > 0 && intl.formatMessage({ id: 'job.summary.notScanned' }, { count: summary.notScanned }),
    findings.review > 0 && intl.formatMessage({ id: 'job.summary.review' }, { count: findings.review }),
    intl.formatMessage({ id: 'job.summary.checked' }, { links: summary.links, documents: summary.documents }),
  ].filter((text): text is string => typeof text === 'string');
  return <p className="job-monitor__summary">{sentences.join(' ')}</p>;
}

/** A duration as a clock reads it, whatever the language: 4:07, or 1:02:09 past an hour. */
function clockOf(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** How long the run has taken: counting each second while it goes on, fixed once it has ended. */
function ElapsedTime({ startedAt, finishedAt }: { startedAt: string; finishedAt: string | undefined }) {
  const intl = useIntl();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (finishedAt !== undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [finishedAt]);
  const start = Date.parse(startedAt);
  const end = finishedAt === undefined ? now : Date.parse(finishedAt);
  if (Number.isNaN(start) || Number.isNaN(end)) return null;
  const seconds = Math.max(0, Math.round((end - start) / 1000));
  return (
    <p className="job-monitor__elapsed">
      {intl.formatMessage({ id: 'job.elapsed' }, { time: <time dateTime={`PT${seconds}S`}>{clockOf(seconds)}</time> })}
    </p>
  );
}

/** Whose course the run tests: the client label and the course by name once the run has read it. */
function courseLine(intl: IntlShape, client: string | undefined, orgUnitId: string | undefined, courseName: string | undefined): string | null {
  if (client === undefined || orgUnitId === undefined) return null;
  return courseName === undefined
    ? intl.formatMessage({ id: 'job.runOfUnnamed' }, { client, orgUnitId })
    : intl.formatMessage({ id: 'job.runOf' }, { client, course: courseName, orgUnitId });
}

/** The report's files, only when the base is a web address: the server's answer is not trusted blindly. */
function reportUrls(report: JobStatusReport, filename: string): { html: string; json: string; csv: string } | null {
  if (report.status !== 'SUCCEEDED' || !report.outputUrl) return null;
  try {
    const at = (extension: string) => new URL(`${report.outputUrl}${filename}.${extension}`, window.location.href);
    const html = at('html');
    if (html.protocol !== 'https:' && html.protocol !== 'http:') return null;
    return { html: html.href, json: at('json').href, csv: at('csv').href };
  } catch {
    return null;
  }
}

export function JobMonitor({ job, pollIntervalMs, focusOnStart = false, onFinished }: JobMonitorProps) {
  const intl = useIntl();
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const { report, known } = useJobStatus(job.taskArn, pollIntervalMs);
  // Dismissing hides the current status; a new status shows again.
  const [dismissedStatus, setDismissedStatus] = useState<string | null>(null);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [cancelFailure, setCancelFailure] = useState<string | null>(null);

  const cancelRun = async () => {
    setConfirmingCancel(false);
    setCancelling(true);
    setCancelFailure(null);
    try {
      known(await cancelJob(job.taskArn));
      // The button that had focus is gone with the run: focus goes to the monitor, which says how it ended.
      heading.current?.focus({ preventScroll: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // It ended on its own meanwhile: show how (or let the next poll show it).
        await getJobStatus(job.taskArn).then(known, () => undefined);
      } else {
        console.error('CTPO: cancelling the run failed', error instanceof Error ? error.message : error);
        const detail = error instanceof ApiError ? (error.serverMessage ?? (error.status === 0 ? intl.formatMessage({ id: 'form.networkError' }) : undefined)) : undefined;
        setCancelFailure(intl.formatMessage({ id: 'job.cancel.failed' }, { detail: detail ?? '' }).trim());
      }
    } finally {
      setCancelling(false);
    }
  };

  useBeforeUnload(!report || !isTerminalJobStatus(report.status));

  // On a phone the monitor appears above the button that started it: scroll it up into view, and
  // move focus to its heading so a screen reader says where the user is now.
  useEffect(() => {
    if (!focusOnStart || !heading.current) return;
    heading.current.scrollIntoView?.({ block: 'start' });
    heading.current.focus({ preventScroll: true });
  }, [focusOnStart]);

  const finished = report?.status === 'SUCCEEDED' || report?.status === 'FAILED' ? report.status : null;
  useEffect(() => {
    if (finished) onFinished?.(job.taskArn, finished);
  }, [finished, onFinished, job.taskArn]);

  const statusText = (status: string) =>
    isKnownJobStatus(status)
      ? intl.formatMessage({ id: `job.status.${status}` })
      : intl.formatMessage({ id: 'job.status.unknown' }, { status });
  const urls = report && reportUrls(report, job.filename);
  const failed = report?.status === 'FAILED';
  const bannerShown = report !== null && report.status !== dismissedStatus;
  const reason = failed && <p className="job-monitor__reason">{report.reason ?? intl.formatMessage({ id: 'job.failed.noReason' })}</p>;
  const course = courseLine(intl, report?.client ?? job.client, report?.orgUnitId === undefined ? job.orgUnitId : String(report.orgUnitId), report?.courseName);
  const active = !report || !isTerminalJobStatus(report.status);

  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId} className="job-monitor__title" ref={heading} tabIndex={-1}>
        {intl.formatMessage({ id: 'job.monitoring' })}
      </h2>
      {course !== null && (
        <p className="job-monitor__course">
          <bdi>{course}</bdi>
        </p>
      )}
      <p className="job-monitor__id">
        <code>{job.taskArn}</code>
      </p>
      {report?.startedAt && <ElapsedTime startedAt={report.startedAt} finishedAt={isTerminalJobStatus(report.status) ? (report.finishedAt ?? report.updatedAt) : undefined} />}

      {bannerShown && (
        <StatusBanner tone={toneOf(report.status)} onDismiss={() => setDismissedStatus(report.status)}>
          {/* Why it failed comes first: the seed's "check logs" line helps no one without logs. */}
          {reason}
          <p>{statusText(report.status)}</p>
        </StatusBanner>
      )}

      {report?.progress && !isTerminalJobStatus(report.status) && <ProgressLine progress={report.progress} />}

      {active && (
        <p className="job-monitor__cancel">
          <button type="button" className="button button--secondary" onClick={() => setConfirmingCancel(true)} disabled={cancelling}>
            {intl.formatMessage({ id: 'job.cancel' })}
          </button>
        </p>
      )}
      {cancelFailure !== null && active && (
        <p className="job-monitor__cancel-failed" role="alert">
          {cancelFailure}
        </p>
      )}
      {confirmingCancel && active && (
        <Dialog
          role="alertdialog"
          title={intl.formatMessage({ id: 'job.cancel.title' })}
          closeLabel={intl.formatMessage({ id: 'job.cancel.keep' })}
          onClose={() => setConfirmingCancel(false)}
          actions={
            <>
              <button type="button" className="button button--secondary" onClick={() => setConfirmingCancel(false)}>
                {intl.formatMessage({ id: 'job.cancel.keep' })}
              </button>
              <button type="button" className="button button--danger" onClick={() => void cancelRun()}>
                {intl.formatMessage({ id: 'job.cancel.confirm' })}
              </button>
            </>
          }
        >
          <p>{intl.formatMessage({ id: 'job.cancel.text' })}</p>
          {course !== null && (
            <p>
              <bdi>{course}</bdi>
            </p>
          )}
        </Dialog>
      )}

      {report?.status === 'SUCCEEDED' && report.summary && <SummaryLine summary={report.summary} />}

      {urls && (
        <p className="job-monitor__links">
          <a className="button button--primary" href={urls.html} target="_blank" rel="noopener noreferrer">
            {intl.formatMessage({ id: 'job.viewOutput' })}{' '}
            <span className="visually-hidden">{intl.formatMessage({ id: 'job.opensInNewTab' })}</span>
          </a>
          <a className="button button--secondary" href={urls.html} download={job.filename || 'output'}>
            {intl.formatMessage({ id: 'job.download' })}
          </a>
          <a className="button button--secondary" href={urls.csv} download={`${job.filename || 'output'}.csv`}>
            {intl.formatMessage({ id: 'job.downloadCsv' })}
          </a>
          <a className="button button--secondary" href={urls.json} download={`${job.filename || 'output'}.json`}>
            {intl.formatMessage({ id: 'job.downloadJson' })}
          </a>
        </p>
      )}

      {failed && (
        <div className="job-monitor__failure">
          {!bannerShown && reason}
          <p className="job-monitor__logs">{intl.formatMessage({ id: 'job.failed' })}</p>
        </div>
      )}
    </section>
  );
}
