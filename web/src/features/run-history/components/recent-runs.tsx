// "Recent runs": the signed-in user's runs from the API, newest first, so earlier runs and their
// reports stay reachable whatever is being monitored, after a reload and after signing in again.
// Each run says what it covered (its modules by title where known, the course-wide items) and in
// which language, when it ran in the reader's time zone, what changed since the last run (new,
// still open, fixed, dismissed) and what that comparison covered, and offers its report, its
// findings and, once it has ended, 'Run again'.
import { useId, type ReactNode } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { Spinner } from '@/components/spinner/spinner';
import { DATE_AND_TIME } from '@/lib/i18n/date-time';
import { languageName } from '@/lib/i18n/language-names';
import { isSupportedLocale } from '@/lib/i18n/locale';
import type { MessageId } from '@/lib/i18n/message-ids';
import { COURSE_SCOPES, JOB_STATUSES } from '@contract';
import type { RecentRun } from '@/features/run-history/api/list-runs';
import { useRecentRuns } from '@/features/run-history/use-recent-runs';
import './recent-runs.css';

interface RecentRunsProps {
  /** Changing it reloads the list (a run was just started). */
  refreshKey: number;
  pollIntervalMs: number;
  /** The run the job monitor shows: why it failed is said there, once, not again here. */
  monitoredTaskArn?: string | null;
  onRunAgain: (run: RecentRun) => void;
  onShowFindings: (run: RecentRun) => void;
  /** Opens the sign-off of a finished run: its protocol's items to answer, and ready for launch. */
  onSignOff: (run: RecentRun) => void;
}

/** A report file's address, only when it is a web address: the server's answer is not trusted blindly. */
export function reportFileUrl(run: RecentRun, extension: 'html' | 'json' | 'csv'): string | null {
  if (run.status !== 'SUCCEEDED' || !run.outputUrl || !run.filename) return null;
  try {
    const url = new URL(`${run.outputUrl}${run.filename}.${extension}`, window.location.href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Names shown of a long list before "and N more". */
const NAMES_SHOWN = 6;

/** Course titles in a sentence of the interface's language: each isolated, so an English title reads right in Arabic. */
function listOfNames(intl: IntlShape, names: readonly string[]): ReactNode {
  const isolated = names.slice(0, NAMES_SHOWN).map((name, index) => <bdi key={index}>{name}</bdi>);
  if (names.length <= NAMES_SHOWN) return intl.formatList(isolated, { type: 'conjunction' });
  const more = intl.formatMessage({ id: 'runs.covered.more' }, { count: names.length - NAMES_SHOWN });
  return intl.formatList([...isolated, more], { type: 'conjunction' });
}

/**
 * The modules a run covered: by title where its owner's app named them (the outermost ones chosen),
 * else counted; and the sub-modules it left out.
 */
function coveredModules(intl: IntlShape, run: RecentRun): ReactNode {
  if (run.modules.length === 0) return intl.formatMessage({ id: 'runs.covered.noModules' });
  const titles = run.moduleTitles ?? {};
  const named = run.modules.flatMap((id) => titles[String(id)] ?? []);
  const modules = named.length > 0 ? listOfNames(intl, named) : intl.formatMessage({ id: 'runs.covered.moduleCount' }, { count: run.modules.length });
  const excluded = run.excludeModules ?? [];
  if (excluded.length === 0) return modules;
  const left = excluded.flatMap((id) => titles[String(id)] ?? []);
  return left.length === excluded.length
    ? intl.formatMessage({ id: 'runs.covered.without' }, { modules, excluded: listOfNames(intl, left) })
    : intl.formatMessage({ id: 'runs.covered.withoutCount' }, { modules, count: excluded.length });
}

/** The course-wide items a run read, by their names in the form. */
function coveredScopes(intl: IntlShape, run: RecentRun): string {
  const read = COURSE_SCOPES.filter((scope) => run.scopes?.includes(scope));
  if (read.length === 0) return intl.formatMessage({ id: 'runs.covered.noScopes' });
  if (read.length === COURSE_SCOPES.length) return intl.formatMessage({ id: 'runs.covered.allScopes' });
  return intl.formatList(
    read.map((scope) => intl.formatMessage({ id: `scopes.${scope}` })),
    { type: 'conjunction' },
  );
}

type Comparison = NonNullable<NonNullable<RecentRun['summary']>['comparison']>;

/** What a run's comparison with the last one covered: everything, nothing, or these places (by name). */
function comparedOn(intl: IntlShape, compared: NonNullable<Comparison['comparedOn']>): ReactNode {
  if (compared.all) return intl.formatMessage({ id: 'runs.comparedOn.all' });
  if (compared.places.length === 0) return intl.formatMessage({ id: 'runs.comparedOn.none' });
  const names = compared.places.map((place, index) =>
    'module' in place ? <bdi key={index}>{place.title}</bdi> : intl.formatMessage({ id: `scopes.${place.scope}` }),
  );
  const more = compared.more > 0 ? [intl.formatMessage({ id: 'runs.covered.more' }, { count: compared.more })] : [];
  return intl.formatMessage({ id: 'runs.comparedOn' }, { places: intl.formatList([...names, ...more], { type: 'conjunction' }) });
}

/** When a run ran, in the reader's time zone: its start, or its start and end with the date once. */
function whenItRan(intl: IntlShape, run: RecentRun): string {
  const start = new Date(run.startedAt ?? run.createdAt);
  const end = run.finishedAt === undefined ? null : new Date(run.finishedAt);
  if (Number.isNaN(start.getTime())) return run.startedAt ?? run.createdAt;
  if (end === null || Number.isNaN(end.getTime()) || end < start) return intl.formatDate(start, DATE_AND_TIME);
  return intl.formatDateTimeRange(start, end, DATE_AND_TIME);
}

function RunItem({ run, monitored, onRunAgain, onShowFindings, onSignOff }: { run: RecentRun; monitored: boolean } & Pick<RecentRunsProps, 'onRunAgain' | 'onShowFindings' | 'onSignOff'>) {
  const intl = useIntl();
  const headingId = useId();
  const known = (JOB_STATUSES as readonly string[]).includes(run.status);
  const statusText = known ? intl.formatMessage({ id: `runs.status.${run.status}` as MessageId }) : run.status;
  const when = whenItRan(intl, run);
  const ended = run.status === 'SUCCEEDED' || run.status === 'FAILED';
  const language = run.language === undefined ? null : isSupportedLocale(run.language) ? languageName(run.language) : run.language;
  const course = run.courseName
    ? intl.formatMessage({ id: 'runs.course' }, { course: run.courseName, orgUnitId: run.orgUnitId })
    : intl.formatMessage({ id: 'runs.courseUnknown' }, { orgUnitId: run.orgUnitId });
  let host = run.siteUrl;
  try {
    host = new URL(run.siteUrl).host;
  } catch {
    // Shown as it came.
  }
  const html = reportFileUrl(run, 'html');
  const csv = reportFileUrl(run, 'csv');
  const tone = run.status === 'SUCCEEDED' ? 'success' : run.status === 'FAILED' ? 'error' : 'busy';
  const counts = run.summary?.findings;
  const changes = run.summary?.comparison;

  return (
    <li className="recent-runs__item">
      <article aria-labelledby={headingId}>
        <h3 id={headingId} className="recent-runs__name">
          {run.client} <span className="recent-runs__course">{course}</span>
        </h3>
        <p className="recent-runs__meta">
          <span className={`recent-runs__status recent-runs__status--${tone}`}>{statusText}</span>{' '}
          <time dateTime={run.startedAt ?? run.createdAt}>{when}</time> <span className="recent-runs__host">{host}</span>
        </p>
        <dl className="recent-runs__covered">
          <div>
            <dt>{intl.formatMessage({ id: 'modules.legend' })}</dt>
            <dd>{coveredModules(intl, run)}</dd>
          </div>
          <div>
            <dt>{intl.formatMessage({ id: 'scopes.legend' })}</dt>
            <dd>{coveredScopes(intl, run)}</dd>
          </div>
          {language !== null && (
            <div>
              <dt>{intl.formatMessage({ id: 'language.label' })}</dt>
              <dd>{language}</dd>
            </div>
          )}
        </dl>
        {counts && (
          <p className="recent-runs__counts">
            {intl.formatMessage({ id: 'runs.counts' }, { errors: counts.error, warnings: counts.warning, notes: counts.info })}
            {changes && (
              <>
                {' '}
                <span className="recent-runs__changes">
                  {changes.open === undefined
                    ? intl.formatMessage({ id: 'runs.changes' }, { new: changes.new, fixed: changes.fixed, dismissed: changes.dismissed })
                    : intl.formatMessage({ id: 'runs.changesOpen' }, { new: changes.new, open: changes.open, fixed: changes.fixed, dismissed: changes.dismissed })}
                </span>
              </>
            )}
          </p>
        )}
        {changes?.comparedOn && <p className="recent-runs__compared">{comparedOn(intl, changes.comparedOn)}</p>}
        {run.summary?.protocol && (
          <p className="recent-runs__counts">
            {run.summary.protocol.score === null ? intl.formatMessage({ id: 'signoff.scoreNone' }) : intl.formatMessage({ id: 'runs.score' }, { score: run.summary.protocol.score })}
            {run.readyForLaunch && (
              <>
                {' '}
                <strong className="recent-runs__ready">{intl.formatMessage({ id: 'runs.ready' }, { by: run.readyForLaunch.by })}</strong>
              </>
            )}
          </p>
        )}
        {run.status === 'FAILED' && run.reason && !monitored && <p className="recent-runs__reason">{run.reason}</p>}
        <p className="recent-runs__actions">
          {html && (
            <a className="button button--secondary button--small" href={html} target="_blank" rel="noopener noreferrer" aria-describedby={headingId}>
              {intl.formatMessage({ id: 'runs.report' })} <span className="visually-hidden">{intl.formatMessage({ id: 'job.opensInNewTab' })}</span>
            </a>
          )}
          {csv && (
            <a className="button button--secondary button--small" href={csv} download={`${run.filename}.csv`} aria-describedby={headingId}>
              {intl.formatMessage({ id: 'runs.csv' })}
            </a>
          )}
          {run.status === 'SUCCEEDED' && run.outputUrl && (
            <button type="button" className="button button--secondary button--small" onClick={() => onShowFindings(run)} aria-describedby={headingId}>
              {intl.formatMessage({ id: 'runs.findings' })}
            </button>
          )}
          {run.status === 'SUCCEEDED' && run.summary?.protocol && (
            <button type="button" className="button button--secondary button--small" onClick={() => onSignOff(run)} aria-describedby={headingId}>
              {intl.formatMessage({ id: 'runs.signOff' })}
            </button>
          )}
          {/* A run still going is not run again: its own result is on its way. */}
          {ended && (
            <button type="button" className="button button--secondary button--small" onClick={() => onRunAgain(run)} aria-describedby={headingId}>
              {intl.formatMessage({ id: 'runs.runAgain' })}
            </button>
          )}
        </p>
      </article>
    </li>
  );
}

export function RecentRuns({ refreshKey, pollIntervalMs, monitoredTaskArn = null, onRunAgain, onShowFindings, onSignOff }: RecentRunsProps) {
  const intl = useIntl();
  const titleId = useId();
  const { state, loadMore, retry } = useRecentRuns(refreshKey, pollIntervalMs);

  return (
    <section className="recent-runs" aria-labelledby={titleId}>
      <h2 id={titleId} className="recent-runs__title">
        {intl.formatMessage({ id: 'runs.title' })}
      </h2>
      {state.status === 'loading' && <Spinner label={intl.formatMessage({ id: 'runs.loading' })} />}
      {state.status === 'failed' && (
        <div className="recent-runs__failed" role="alert">
          <p>{intl.formatMessage({ id: 'runs.failed' })}</p>
          <button type="button" className="button button--secondary button--small" onClick={retry}>
            {intl.formatMessage({ id: 'runs.retry' })}
          </button>
        </div>
      )}
      {state.status === 'loaded' && state.runs.length === 0 && <p className="recent-runs__empty">{intl.formatMessage({ id: 'runs.empty' })}</p>}
      {state.status === 'loaded' && state.runs.length > 0 && (
        <>
          <ul className="recent-runs__list">
            {state.runs.map((run) => (
              <RunItem key={run.taskArn} run={run} monitored={run.taskArn === monitoredTaskArn} onRunAgain={onRunAgain} onShowFindings={onShowFindings} onSignOff={onSignOff} />
            ))}
          </ul>
          {state.moreFailed && (
            <p className="recent-runs__failed" role="alert">
              {intl.formatMessage({ id: 'runs.moreFailed' })}
            </p>
          )}
          {state.nextCursor && (
            <button type="button" className="button button--secondary" onClick={() => void loadMore()} disabled={state.loadingMore}>
              {intl.formatMessage({ id: 'runs.more' })}
            </button>
          )}
        </>
      )}
    </section>
  );
}
