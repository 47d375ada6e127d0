// The single page: the sign-in screen, or the signed-in header over the course-test form with the
// monitor of the current job, the user's recent runs and, when asked, a run's findings. The
// monitored job is kept across reloads (for the user who started it) and forgotten on sign-out; a
// new run replaces it once started (a start refused, e.g. over the limit of runs, keeps it); the recent runs come from the API, so they survive both. A skip link
// leads past the header to the form.
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { Spinner } from '@/components/spinner/spinner';
import { DATE_AND_TIME } from '@/lib/i18n/date-time';
import type { RuntimeConfig } from '@/lib/runtime-config';
import { HeaderBar } from '@/features/auth/components/header-bar';
import { SignInScreen } from '@/features/auth/components/sign-in-screen';
import { useAuthSession } from '@/features/auth/use-auth-session';
import { COURSE_FORM_ID, CourseTestForm, type FormPrefill } from '@/features/course-test/components/course-test-form';
import type { FindingsRun } from '@/features/findings/components/findings-view';
import type { CatalogueCheck } from '@/features/protocol/components/protocol-view';
import type { SignOffRun } from '@/features/protocol/components/sign-off-view';
import { useLanguage } from '@/lib/i18n/use-language';
import type { LocaleTag } from '@/lib/i18n/locale';
import { HelpLink } from '@/features/help/components/help-link';
import { JobMonitor } from '@/features/job-monitor/components/job-monitor';
import {
  clearMonitoredJob,
  loadMonitoredJob,
  saveMonitoredJob,
  type MonitoredJob,
} from '@/features/job-monitor/monitored-job';
import type { RecentRun } from '@/features/run-history/api/list-runs';
import { RecentRuns, reportFileUrl } from '@/features/run-history/components/recent-runs';

// The Findings panel is opened on request, for a finished run: its code is fetched then, not at start.
const FindingsView = lazy(() => import('@/features/findings/components/findings-view').then((module) => ({ default: module.FindingsView })));
// So are the Protocol view and a run's sign-off.
const ProtocolView = lazy(() => import('@/features/protocol/components/protocol-view').then((module) => ({ default: module.ProtocolView })));
const SignOffView = lazy(() => import('@/features/protocol/components/sign-off-view').then((module) => ({ default: module.SignOffView })));

/** The catalogue's checks by title in the interface's language, for the Protocol view's check picker. */
async function catalogueChecks(locale: LocaleTag): Promise<CatalogueCheck[]> {
  const { checkTitle, loadCheckMessages } = await import('@/features/findings/check-messages');
  const texts = await loadCheckMessages(locale);
  const ids = Object.keys(texts.messages).flatMap((id) => (id.startsWith('check.') && id !== 'check.a11y-rule' ? [id.slice('check.'.length)] : []));
  return ids.map((id) => ({ id, title: checkTitle(texts, id) }));
}

export function CtpoPage({ config }: { config: RuntimeConfig }) {
  const intl = useIntl();
  const { session, signInFailed, signIn, signOut } = useAuthSession();
  const user = session.status === 'signedIn' ? session.email : null;
  // The stored job of whoever is signed in, until this page starts or forgets one.
  const storedJob = useMemo(() => (user ? loadMonitoredJob(user) : null), [user]);
  // `started`: the job was started on this page just now (not resumed after a reload).
  const [jobChange, setJobChange] = useState<{ job: MonitoredJob | null; started: boolean } | null>(null);
  const job = jobChange ? jobChange.job : storedJob;
  const [failedJob, setFailedJob] = useState<string | null>(null);
  // Bumped when a run starts or the monitored one ends: the recent runs are read again.
  const [runsRefresh, setRunsRefresh] = useState(0);
  const [prefill, setPrefill] = useState<FormPrefill | null>(null);
  const [findingsRun, setFindingsRun] = useState<FindingsRun | null>(null);
  const [protocolsOpen, setProtocolsOpen] = useState(false);
  const [signOffRun, setSignOffRun] = useState<SignOffRun | null>(null);
  const { locale } = useLanguage();
  const loadChecks = useCallback(() => catalogueChecks(locale), [locale]);
  const handleFinished = useCallback((taskArn: string, status: 'SUCCEEDED' | 'FAILED') => {
    setFailedJob((previous) => (status === 'FAILED' ? taskArn : previous === taskArn ? null : previous));
    setRunsRefresh((count) => count + 1);
  }, []);

  if (session.status === 'checking') {
    return (
      <main className="centered-message">
        <Spinner label={intl.formatMessage({ id: 'auth.checking' })} />
      </main>
    );
  }
  if (session.status === 'signedOut') {
    return <SignInScreen signInFailed={signInFailed} onSignIn={() => void signIn()} />;
  }

  const handleSignOut = () => {
    // The next person to sign in on this browser must not see this user's job.
    clearMonitoredJob();
    setJobChange({ job: null, started: false });
    setFindingsRun(null);
    setSignOffRun(null);
    setProtocolsOpen(false);
    void signOut();
  };

  const runAgain = (run: RecentRun) =>
    setPrefill((previous) => ({
      key: (previous?.key ?? 0) + 1,
      ...(run.userName === undefined ? {} : { userName: run.userName }),
      siteUrl: run.siteUrl,
      orgUnitId: String(run.orgUnitId),
      clientName: run.client,
      moduleIds: run.modules.map(String),
      excludedModuleIds: (run.excludeModules ?? []).map(String),
      ...(run.scopes === undefined ? {} : { scopes: run.scopes }),
      source: intl.formatMessage({ id: 'form.prefilledSource' }, { client: run.client, date: intl.formatDate(run.startedAt ?? run.createdAt, DATE_AND_TIME) }),
    }));

  const showFindings = (run: RecentRun) => {
    const jsonUrl = reportFileUrl(run, 'json');
    if (jsonUrl === null) return;
    setFindingsRun({ taskArn: run.taskArn, client: run.client, siteUrl: run.siteUrl, orgUnitId: run.orgUnitId, jsonUrl, ...(run.courseName ? { courseName: run.courseName } : {}) });
  };

  return (
    <>
      <a className="skip-link" href={`#${COURSE_FORM_ID}`}>
        {intl.formatMessage({ id: 'app.skipToForm' })}
      </a>
      <HeaderBar email={session.email} onSignOut={handleSignOut} />
      <main className="page">
        <div className="card page__card">
          <h1 className="page__title">{intl.formatMessage({ id: 'app.title' })}</h1>
          <p className="page__help">
            <HelpLink />
          </p>
          <CourseTestForm
            monitor={
              job && (
                <JobMonitor
                  key={job.taskArn}
                  job={job}
                  pollIntervalMs={config.pollIntervalMs}
                  focusOnStart={jobChange?.started === true}
                  onFinished={handleFinished}
                />
              )
            }
            runFailed={job !== null && failedJob === job.taskArn && jobChange?.started === true}
            prefill={prefill}
            onRunStarted={(run) => {
              saveMonitoredJob(run, session.email);
              setJobChange({ job: run, started: true });
              setRunsRefresh((count) => count + 1);
            }}
          />
          <p className="page__help">
            <button type="button" className="button button--secondary button--small" aria-expanded={protocolsOpen} onClick={() => setProtocolsOpen((open) => !open)}>
              {intl.formatMessage({ id: 'protocol.open' })}
            </button>
          </p>
          {protocolsOpen && (
            <Suspense fallback={<Spinner label={intl.formatMessage({ id: 'protocol.loading' })} />}>
              <ProtocolView loadChecks={loadChecks} onClose={() => setProtocolsOpen(false)} />
            </Suspense>
          )}
          <RecentRuns
            refreshKey={runsRefresh}
            pollIntervalMs={config.pollIntervalMs}
            monitoredTaskArn={job?.taskArn ?? null}
            onRunAgain={runAgain}
            onShowFindings={showFindings}
            onSignOff={(run) => setSignOffRun({ taskArn: run.taskArn, client: run.client, ...(run.courseName ? { courseName: run.courseName } : {}) })}
          />
          {signOffRun && (
            <Suspense fallback={<Spinner label={intl.formatMessage({ id: 'protocol.loading' })} />}>
              <SignOffView key={signOffRun.taskArn} run={signOffRun} onClose={() => setSignOffRun(null)} onSignedOff={() => setRunsRefresh((count) => count + 1)} />
            </Suspense>
          )}
          {findingsRun && (
            <Suspense fallback={<Spinner label={intl.formatMessage({ id: 'findings.loading' })} />}>
              <FindingsView key={findingsRun.taskArn} run={findingsRun} onClose={() => setFindingsRun(null)} />
            </Suspense>
          )}
        </div>
      </main>
    </>
  );
}
