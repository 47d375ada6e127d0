// Sign-off of a finished run: its protocol's items with their status (the automated ones as the run
// decided them), the items a person answers with pass, fail or not applicable and a note, and
// "Ready for launch" once every item passes or does not apply. Answers are kept for the course, so
// the next run of it carries them; the run's report is written again with them.
import { useEffect, useId, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { Spinner } from '@/components/spinner/spinner';
import { ApiError } from '@/lib/api-client';
import { DATE_AND_TIME } from '@/lib/i18n/date-time';
import { answerItem, getRunProtocol, markReady, type RunProtocolAnswer } from '@/features/protocol/api/protocols';
import type { ManualAnswerStatus } from '@contract';
import './protocol-view.css';

export interface SignOffRun {
  taskArn: string;
  client: string;
  courseName?: string;
}

const STATUS_KEY = { pass: 'pass', fail: 'fail', 'needs-person': 'person', 'n/a': 'na' } as const;
const ANSWERS: ManualAnswerStatus[] = ['pass', 'fail', 'n/a'];

export function SignOffView({ run, onClose, onSignedOff }: { run: SignOffRun; onClose: () => void; onSignedOff: () => void }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id: id as never }, values);
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [state, setState] = useState<RunProtocolAnswer | 'loading' | 'failed'>('loading');
  const [drafts, setDrafts] = useState<Record<string, { status: ManualAnswerStatus; note: string }>>({});
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);

  useEffect(() => headingRef.current?.focus(), []);
  useEffect(() => {
    const controller = new AbortController();
    getRunProtocol(run.taskArn, controller.signal).then(setState, (error: unknown) => {
      if (controller.signal.aborted) return;
      setState('failed');
      setMessage({ tone: 'error', text: error instanceof ApiError && error.serverMessage ? error.serverMessage : t('protocol.loadFailed') });
    });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [run.taskArn]);

  const act = async (action: () => Promise<RunProtocolAnswer>, done: string) => {
    setMessage(null);
    try {
      setState(await action());
      setMessage({ tone: 'ok', text: done });
    } catch (error) {
      setMessage({ tone: 'error', text: error instanceof ApiError && error.serverMessage ? error.serverMessage : t('protocol.saveFailed') });
    }
  };

  const heading = (
    <header className="panel__header">
      <h2 id={titleId} ref={headingRef} tabIndex={-1} className="panel__title">
        {t('signoff.title', { client: run.client })}
      </h2>
      <button type="button" className="button button--secondary button--small" onClick={onClose}>
        {t('protocol.close')}
      </button>
    </header>
  );
  const status = message && (
    <p className={`protocol-view__status protocol-view__status--${message.tone}`} role={message.tone === 'error' ? 'alert' : 'status'}>
      {message.text}
    </p>
  );
  if (state === 'loading') return <Spinner label={t('protocol.loading')} />;
  if (state === 'failed') return <section className="panel" aria-labelledby={titleId}>{heading}{status}</section>;
  const { protocol } = state;

  return (
    <section className="panel" aria-labelledby={titleId}>
      {heading}
      <p className="protocol-view__note">
        {t('protocol.nameVersion', { name: protocol.name, version: protocol.version })}{' '}
        <strong>{protocol.score === null ? t('signoff.scoreNone') : t('signoff.score', { score: protocol.score })}</strong>
      </p>
      <ol className="protocol-view__items">
        {protocol.items.map((item) => {
          const draft = drafts[item.id] ?? { status: item.answer?.status ?? 'pass', note: item.answer?.note ?? '' };
          const setDraft = (change: Partial<typeof draft>) => setDrafts((current) => ({ ...current, [item.id]: { ...draft, ...change } }));
          return (
            <li key={item.id} className="protocol-view__item">
              <p className="protocol-view__row">
                <strong>{t('signoff.status', { status: STATUS_KEY[item.status] })}</strong> {item.title}
              </p>
              {item.answer && <p className="protocol-view__note">{t('signoff.answered', { by: item.answer.by, date: intl.formatDate(item.answer.at, DATE_AND_TIME) })}</p>}
              {item.kind === 'manual' && (
                <fieldset className="protocol-view__answer">
                  <legend>{t('signoff.answer', { title: item.title })}</legend>
                  <div className="protocol-view__row">
                    {ANSWERS.map((answer) => (
                      <label key={answer}>
                        <input type="radio" name={`${titleId}-${item.id}`} value={answer} checked={draft.status === answer} onChange={() => setDraft({ status: answer })} />{' '}
                        {t('signoff.status', { status: STATUS_KEY[answer] })}
                      </label>
                    ))}
                  </div>
                  <label>
                    {t('signoff.note')} <input type="text" value={draft.note} maxLength={1000} onChange={(event) => setDraft({ note: event.target.value })} />
                  </label>
                  <p className="protocol-view__actions">
                    <button type="button" className="button button--secondary button--small" onClick={() => void act(() => answerItem(run.taskArn, item.id, draft.status, draft.note), t('signoff.saved'))}>
                      {t('signoff.saveAnswer', { title: item.title })}
                    </button>
                  </p>
                </fieldset>
              )}
            </li>
          );
        })}
      </ol>
      {protocol.ready ? (
        <p className="protocol-view__status protocol-view__status--ok">{t('signoff.readyBy', { by: protocol.ready.by, date: intl.formatDate(protocol.ready.at, DATE_AND_TIME) })}</p>
      ) : (
        <p className="protocol-view__actions">
          <button
            type="button"
            className="button"
            onClick={() =>
              void act(async () => {
                const signed = await markReady(run.taskArn);
                onSignedOff();
                return signed;
              }, t('signoff.saved'))
            }
          >
            {t('signoff.markReady')}
          </button>
          {!state.canSignOff && <span className="protocol-view__note">{t('signoff.notYet')}</span>}
        </p>
      )}
      {status}
    </section>
  );
}
