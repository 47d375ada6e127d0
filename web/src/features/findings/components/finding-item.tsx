// One finding in the findings view, under its problem's heading: what is wrong here (in the report's
// language), where, and the 'Dismiss' or 'Restore' that changes what the course's next report counts.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { dismissFinding, restoreFinding, type CourseKey, type Dismissal } from '@/features/findings/api/dismissals';
import type { ReportFinding } from '@/features/findings/api/get-report';

interface FindingItemProps {
  finding: ReportFinding;
  /** The report's language, for the texts that come from it. */
  language: string;
  /** Set while the finding is dismissed for the course. */
  dismissal: Dismissal | undefined;
  course: CourseKey;
  onChange: (fingerprint: string, dismissal: Dismissal | null) => void;
}

export function FindingItem({ finding, language, dismissal, course, onChange }: FindingItemProps) {
  const intl = useIntl();
  const messageId = useId();
  const reasonId = useId();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  // After a dismissal or a restore, focus stays on the finding: on the button that undoes it.
  const focusAction = useRef(false);
  const actionRef = useRef<HTMLButtonElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (asking) reasonRef.current?.focus();
  }, [asking]);

  useEffect(() => {
    if (!focusAction.current) return;
    focusAction.current = false;
    actionRef.current?.focus();
  });

  const save = async (work: () => Promise<Dismissal | null>) => {
    setSaving(true);
    setFailed(false);
    try {
      onChange(finding.fingerprint, await work());
      setAsking(false);
      setReason('');
      focusAction.current = true;
    } catch (error) {
      console.error('CTPO: saving a dismissal failed', error instanceof Error ? error.message : error);
      setFailed(true);
    } finally {
      setSaving(false);
    }
  };

  const handleDismiss = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void save(() => dismissFinding(course, finding.fingerprint, reason));
  };

  const place = [finding.moduleTitle, finding.itemTitle ?? finding.topicTitle].filter((part): part is string => Boolean(part));

  return (
    <li className={`finding-item finding-item--${finding.severity}${dismissal ? ' finding-item--dismissed' : ''}`}>
      {(dismissal || finding.status) && (
        <p className="finding-item__labels">
          {dismissal && <span className="finding-item__status finding-item__status--dismissed">{intl.formatMessage({ id: 'findings.status.dismissed' })}</span>}
          {finding.status && !dismissal && (
            <span className={`finding-item__status finding-item__status--${finding.status}`}>{intl.formatMessage({ id: `findings.status.${finding.status}` })}</span>
          )}
        </p>
      )}
      <p id={messageId} className="finding-item__message" lang={language}>
        {finding.message}
      </p>
      {place.length > 0 && (
        <p className="finding-item__place" lang={language}>
          {place.join(' › ')}
          {finding.linkText && <> · “{finding.linkText}”</>}
        </p>
      )}
      {finding.url && (
        <p className="finding-item__url">
          <a href={finding.url} target="_blank" rel="noopener noreferrer">
            {finding.url}
          </a>
        </p>
      )}
      {dismissal && (
        <p className="finding-item__dismissal">
          {intl.formatMessage({ id: 'findings.dismissedBy' }, { by: dismissal.by, date: intl.formatDate(dismissal.at, { dateStyle: 'medium' }) })}
          {dismissal.reason && (
            <>
              {' '}
              {intl.formatMessage({ id: 'findings.dismissedReason' }, { reason: dismissal.reason })}
            </>
          )}
        </p>
      )}
      {asking ? (
        <form className="finding-item__form" onSubmit={handleDismiss}>
          <label htmlFor={reasonId}>{intl.formatMessage({ id: 'findings.reason.label' })}</label>
          <textarea id={reasonId} ref={reasonRef} value={reason} maxLength={500} rows={2} onChange={(event) => setReason(event.target.value)} />
          <p className="finding-item__actions">
            <button type="submit" className="button button--primary button--small" disabled={saving} aria-describedby={messageId}>
              {intl.formatMessage({ id: 'findings.dismiss.confirm' })}
            </button>
            <button type="button" className="button button--secondary button--small" onClick={() => setAsking(false)} disabled={saving}>
              {intl.formatMessage({ id: 'findings.dismiss.cancel' })}
            </button>
          </p>
        </form>
      ) : (
        <p className="finding-item__actions">
          {dismissal ? (
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={saving}
              aria-describedby={messageId}
              ref={actionRef}
              onClick={() =>
                void save(async () => {
                  await restoreFinding(course, finding.fingerprint);
                  return null;
                })
              }
            >
              {intl.formatMessage({ id: 'findings.restore' })}
            </button>
          ) : (
            <button type="button" ref={actionRef} className="button button--secondary button--small" onClick={() => setAsking(true)} aria-describedby={messageId}>
              {intl.formatMessage({ id: 'findings.dismiss' })}
            </button>
          )}
        </p>
      )}
      {failed && (
        <p className="finding-item__failed" role="alert">
          {intl.formatMessage({ id: 'findings.actionFailed' })}
        </p>
      )}
    </li>
  );
}
