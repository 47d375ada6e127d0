// The progress panel of a started run: which job, its status in words, what the run is doing with
// a progress bar while it goes on, and the report links once it has succeeded.
import { useId, useState } from 'react';
import { useIntl } from 'react-intl';
import { StatusBanner, type BannerTone } from '@/components/status-banner/status-banner';
import { useBeforeUnload } from '@/lib/use-before-unload';
import { isKnownJobStatus, isTerminalJobStatus, type JobProgress, type JobStatusReport } from '@/features/job-monitor/api/get-job-status';
import type { MonitoredJob } from '@/features/job-monitor/monitored-job';
import { useJobStatus } from '@/features/job-monitor/use-job-status';
import './job-monitor.css';

interface JobMonitorProps {
  job: MonitoredJob;
  pollIntervalMs: number;
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

/** The report's address, only when it is a web address: the server's answer is not trusted blindly. */
function reportUrl(report: JobStatusReport, filename: string): string | null {
  if (report.status !== 'SUCCEEDED' || !report.outputUrl) return null;
  try {
    const url = new URL(`${report.outputUrl}${filename}.html`, window.location.href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

export function JobMonitor({ job, pollIntervalMs }: JobMonitorProps) {
  const intl = useIntl();
  const titleId = useId();
  const report = useJobStatus(job.taskArn, pollIntervalMs);
  // Dismissing hides the current status; a new status shows again.
  const [dismissedStatus, setDismissedStatus] = useState<string | null>(null);

  useBeforeUnload(!report || !isTerminalJobStatus(report.status));

  const statusText = (status: string) =>
    isKnownJobStatus(status)
      ? intl.formatMessage({ id: `job.status.${status}` })
      : intl.formatMessage({ id: 'job.status.unknown' }, { status });
  const outputUrl = report && reportUrl(report, job.filename);

  return (
    <section className="job-monitor" aria-labelledby={titleId}>
      <h2 id={titleId} className="job-monitor__title">
        {intl.formatMessage({ id: 'job.monitoring' })}
      </h2>
      <p className="job-monitor__id">
        <code>{job.taskArn}</code>
      </p>

      {report && report.status !== dismissedStatus && (
        <StatusBanner tone={toneOf(report.status)} onDismiss={() => setDismissedStatus(report.status)}>
          <p>{statusText(report.status)}</p>
        </StatusBanner>
      )}

      {report?.progress && !isTerminalJobStatus(report.status) && <ProgressLine progress={report.progress} />}

      {outputUrl && (
        <p className="job-monitor__links">
          <a className="button button--primary" href={outputUrl} target="_blank" rel="noopener noreferrer">
            {intl.formatMessage({ id: 'job.viewOutput' })}{' '}
            <span className="visually-hidden">{intl.formatMessage({ id: 'job.opensInNewTab' })}</span>
          </a>
          <a className="button button--secondary" href={outputUrl} download={job.filename || 'output'}>
            {intl.formatMessage({ id: 'job.download' })}
          </a>
        </p>
      )}

      {report?.status === 'FAILED' && (
        <div className="job-monitor__failure">
          <p>{intl.formatMessage({ id: 'job.failed' })}</p>
          {report.reason && <p className="job-monitor__reason">{report.reason}</p>}
        </div>
      )}
    </section>
  );
}
