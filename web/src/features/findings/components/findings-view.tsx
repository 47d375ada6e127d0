// The findings of a finished run, read from its JSON twin, as the report gathers them: one group per
// problem (collapsed, with its count), named and with its fix in the interface's language, the
// details of each finding in the report's. Filtered by what to show, severity, problem and module;
// each finding with 'Dismiss' (and an optional reason) or 'Restore'. Dismissals belong to the course,
// so the change shows in the course's next report; this run's report stays as it was written.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { Spinner } from '@/components/spinner/spinner';
import { useLanguage } from '@/lib/i18n/use-language';
import { listDismissals, type CourseKey, type Dismissal } from '@/features/findings/api/dismissals';
import { getRunReport, type ReportFinding, type RunReport, type Severity } from '@/features/findings/api/get-report';
import { checkTitle, loadCheckMessages, type CheckMessages } from '@/features/findings/check-messages';
import { groupFindings } from '@/features/findings/finding-groups';
import { FindingGroupView } from '@/features/findings/components/finding-group';
import './findings-view.css';

export interface FindingsRun {
  taskArn: string;
  client: string;
  courseName?: string;
  siteUrl: string;
  orgUnitId: number;
  /** The JSON twin's address. */
  jsonUrl: string;
}

interface FindingsViewProps {
  run: FindingsRun;
  onClose: () => void;
}

type Loaded = { status: 'loading' } | { status: 'failed' } | { status: 'loaded'; report: RunReport; dismissals: Map<string, Dismissal> };

const SEVERITIES: Severity[] = ['error', 'warning', 'info'];
const ALL = 'all';
const COURSE_WIDE = 'course';

export function FindingsView({ run, onClose }: FindingsViewProps) {
  const intl = useIntl();
  const { locale } = useLanguage();
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [texts, setTexts] = useState<CheckMessages | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [severity, setSeverity] = useState<string>(ALL);
  const [check, setCheck] = useState<string>(ALL);
  const [module, setModule] = useState<string>(ALL);
  const [shown, setShown] = useState<'all' | 'open' | 'dismissed'>('all');
  // Groups the user opened or closed; the others are closed, unless a single one is shown.
  const [expanded, setExpanded] = useState<ReadonlyMap<string, boolean>>(new Map());
  const course: CourseKey = useMemo(() => ({ siteUrl: run.siteUrl, orgUnitId: run.orgUnitId }), [run.siteUrl, run.orgUnitId]);

  useEffect(() => {
    headingRef.current?.focus();
  }, [run.taskArn]);

  useEffect(() => {
    let current = true;
    void loadCheckMessages(locale).then((loadedTexts) => current && setTexts(loadedTexts));
    return () => {
      current = false;
    };
  }, [locale]);

  useEffect(() => {
    const controller = new AbortController();
    Promise.all([getRunReport(run.jsonUrl, controller.signal), listDismissals(course, controller.signal)]).then(
      ([report, dismissals]) => setLoaded({ status: 'loaded', report, dismissals: new Map(dismissals.map((item) => [item.fingerprint, item])) }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('CTPO: loading the findings failed', error instanceof Error ? error.message : error);
        setLoaded({ status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [run.jsonUrl, course, attempt]);

  const all = useMemo(() => {
    if (loaded.status !== 'loaded') return [];
    const seen = new Set<string>();
    return [...loaded.report.findings, ...loaded.report.dismissed].filter((finding) => !seen.has(finding.fingerprint) && seen.add(finding.fingerprint));
  }, [loaded]);

  const setDismissal = (fingerprint: string, dismissal: Dismissal | null) =>
    setLoaded((current) => {
      if (current.status !== 'loaded') return current;
      const dismissals = new Map(current.dismissals);
      if (dismissal === null) dismissals.delete(fingerprint);
      else dismissals.set(fingerprint, dismissal);
      return { ...current, dismissals };
    });

  const courseTitle = run.courseName
    ? intl.formatMessage({ id: 'runs.course' }, { course: run.courseName, orgUnitId: run.orgUnitId })
    : intl.formatMessage({ id: 'runs.courseUnknown' }, { orgUnitId: run.orgUnitId });

  const matches = (finding: ReportFinding) =>
    (shown === 'all' || (loaded.status === 'loaded' && loaded.dismissals.has(finding.fingerprint)) === (shown === 'dismissed')) &&
    (severity === ALL || finding.severity === severity) &&
    (check === ALL || finding.check === check) &&
    (module === ALL || (module === COURSE_WIDE ? finding.moduleId === null : String(finding.moduleId) === module));

  // The problems of this run, by name in the interface's language.
  const checks = useMemo(() => {
    if (texts === null) return [];
    return [...new Set(all.map((finding) => finding.check))]
      .map((id) => ({ id, title: checkTitle(texts, id) }))
      .sort((a, b) => a.title.localeCompare(b.title, intl.locale));
  }, [all, texts, intl.locale]);

  return (
    <section className="panel" aria-labelledby={titleId}>
      <div className="panel__header">
        <h2 id={titleId} ref={headingRef} tabIndex={-1} className="panel__title">
          {intl.formatMessage({ id: 'findings.title' }, { client: run.client, course: courseTitle })}
        </h2>
        <button type="button" className="button button--secondary button--small" onClick={onClose}>
          {intl.formatMessage({ id: 'findings.close' })}
        </button>
      </div>
      <p className="findings-view__note">{intl.formatMessage({ id: 'findings.nextReport' })}</p>

      {(loaded.status === 'loading' || (loaded.status === 'loaded' && texts === null)) && <Spinner label={intl.formatMessage({ id: 'findings.loading' })} />}
      {loaded.status === 'failed' && (
        <div role="alert">
          <p>{intl.formatMessage({ id: 'findings.failed' })}</p>
          <button type="button" className="button button--secondary button--small" onClick={() => {
              setLoaded({ status: 'loading' });
              setAttempt((count) => count + 1);
            }}
          >
            {intl.formatMessage({ id: 'runs.retry' })}
          </button>
        </div>
      )}
      {loaded.status === 'loaded' && texts !== null && (
        <>
          <div className="findings-view__filters">
            <label>
              {intl.formatMessage({ id: 'findings.filter.show' })}
              <select value={shown} onChange={(event) => setShown(event.target.value as typeof shown)}>
                <option value="all">{intl.formatMessage({ id: 'findings.show.all' })}</option>
                <option value="open">{intl.formatMessage({ id: 'findings.show.open' })}</option>
                <option value="dismissed">{intl.formatMessage({ id: 'findings.show.dismissed' })}</option>
              </select>
            </label>
            <label>
              {intl.formatMessage({ id: 'findings.filter.severity' })}
              <select value={severity} onChange={(event) => setSeverity(event.target.value)}>
                <option value={ALL}>{intl.formatMessage({ id: 'findings.filter.all' })}</option>
                {SEVERITIES.map((value) => (
                  <option key={value} value={value}>
                    {intl.formatMessage({ id: `findings.severity.${value}` })}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {intl.formatMessage({ id: 'findings.filter.check' })}
              <select value={check} onChange={(event) => setCheck(event.target.value)}>
                <option value={ALL}>{intl.formatMessage({ id: 'findings.filter.all' })}</option>
                {checks.map((entry) => (
                  <option key={entry.id} value={entry.id}>
                    {entry.title}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {intl.formatMessage({ id: 'findings.filter.module' })}
              <select value={module} onChange={(event) => setModule(event.target.value)}>
                <option value={ALL}>{intl.formatMessage({ id: 'findings.filter.all' })}</option>
                {loaded.report.modules
                  .filter((entry) => all.some((finding) => finding.moduleId === entry.moduleId))
                  .map((entry) => (
                    <option key={entry.moduleId} value={String(entry.moduleId)}>
                      {entry.title}
                    </option>
                  ))}
                {all.some((finding) => finding.moduleId === null) && <option value={COURSE_WIDE}>{intl.formatMessage({ id: 'findings.courseWide' })}</option>}
              </select>
            </label>
          </div>
          <FindingGroups
            report={loaded.report}
            findings={all.filter(matches)}
            total={all.length}
            texts={texts}
            expanded={expanded}
            onExpand={(key, open) => setExpanded((previous) => new Map(previous).set(key, open))}
            dismissals={loaded.dismissals}
            course={course}
            onChange={setDismissal}
          />
        </>
      )}
    </section>
  );
}

interface FindingGroupsProps {
  report: RunReport;
  findings: ReportFinding[];
  total: number;
  texts: CheckMessages;
  expanded: ReadonlyMap<string, boolean>;
  onExpand: (key: string, open: boolean) => void;
  dismissals: Map<string, Dismissal>;
  course: CourseKey;
  onChange: (fingerprint: string, dismissal: Dismissal | null) => void;
}

function FindingGroups({ report, findings, total, texts, expanded, onExpand, dismissals, course, onChange }: FindingGroupsProps) {
  const intl = useIntl();
  const groups = useMemo(() => groupFindings(findings), [findings]);
  return (
    <>
      <p className="findings-view__count" role="status">
        {intl.formatMessage({ id: 'findings.count' }, { shown: findings.length, total })}{' '}
        {groups.length > 0 && intl.formatMessage({ id: 'findings.groupCount' }, { count: groups.length })}
      </p>
      {groups.length === 0 ? (
        <p className="findings-view__empty">{intl.formatMessage({ id: 'findings.none' })}</p>
      ) : (
        <div className="findings-view__groups">
          {groups.map((group) => (
            <FindingGroupView
              key={group.key}
              group={group}
              texts={texts}
              // One problem alone is shown open: there is nothing else to choose from.
              open={expanded.get(group.key) ?? groups.length === 1}
              onToggle={(open) => onExpand(group.key, open)}
              language={report.language}
              dismissals={dismissals}
              course={course}
              onChange={onChange}
            />
          ))}
        </div>
      )}
    </>
  );
}
