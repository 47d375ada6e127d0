// The Protocol view: each client's course testing checklist, picked by client label, edited (items,
// checks chosen by their titles from the catalogue, weights, allowances, items a person answers),
// imported and exported as JSON, and saved for the user; runs for that client are scored by it. A
// client without one is scored by CTPO's default, which a new protocol starts from. The server checks
// what is saved and says what to change; nothing is saved until it accepts the whole protocol.
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { useIntl } from 'react-intl';
import { Spinner } from '@/components/spinner/spinner';
import { ApiError } from '@/lib/api-client';
import { listProtocols, removeProtocol, saveProtocol, type Protocol, type ProtocolsAnswer } from '@/features/protocol/api/protocols';
import './protocol-view.css';

/** A check of the catalogue, by its id and its title in the interface's language. */
export interface CatalogueCheck {
  id: string;
  title: string;
}

interface ProtocolViewProps {
  /** The catalogue's checks by title; families (`a11y.*`) are offered from their ids. */
  loadChecks: () => Promise<CatalogueCheck[]>;
  onClose: () => void;
}

type DraftItem = Protocol['items'][number];
const NEW_CLIENT = '';

function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

export function ProtocolView({ loadChecks, onClose }: ProtocolViewProps) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id: id as never }, values);
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [answer, setAnswer] = useState<ProtocolsAnswer | null>(null);
  const [failed, setFailed] = useState(false);
  const [checks, setChecks] = useState<CatalogueCheck[]>([]);
  const [client, setClient] = useState<string>(NEW_CLIENT);
  const [newClient, setNewClient] = useState('');
  const [draft, setDraft] = useState<Protocol | null>(null);
  const [status, setStatus] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => headingRef.current?.focus(), []);
  useEffect(() => {
    const controller = new AbortController();
    listProtocols(controller.signal).then(
      (loaded) => {
        setAnswer(loaded);
        setDraft(structuredClone(loaded.default));
      },
      () => !controller.signal.aborted && setFailed(true),
    );
    void loadChecks().then(setChecks);
    return () => controller.abort();
  }, [loadChecks]);

  const options = useMemo(() => {
    const families = [...new Set(checks.map((check) => check.id.split('.')[0]!))].sort().map((family) => ({ id: `${family}.*`, title: t('protocol.family', { family: `${family}.*` }) }));
    return [...families, ...[...checks].sort((a, b) => a.title.localeCompare(b.title))];
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [checks, intl.locale]);
  const titleOf = (id: string) => options.find((option) => option.id === id)?.title ?? id;

  if (failed) return <section className="panel" role="alert">{t('protocol.loadFailed')}</section>;
  if (answer === null || draft === null) return <Spinner label={t('protocol.loading')} />;

  const pick = (chosen: string) => {
    setClient(chosen);
    setStatus(null);
    const saved = answer.protocols.find((stored) => stored.client === chosen);
    setDraft(structuredClone(saved?.protocol ?? answer.default));
  };
  const updateItem = (index: number, change: Partial<DraftItem> | ((item: DraftItem) => DraftItem)) =>
    setDraft((current) => current && { ...current, items: current.items.map((item, at) => (at === index ? (typeof change === 'function' ? change(item) : { ...item, ...change }) : item)) });
  const label = client === NEW_CLIENT ? newClient.trim() : client;

  const save = async () => {
    setBusy(true);
    setStatus(null);
    try {
      const stored = await saveProtocol(label, draft);
      setAnswer((current) => current && { ...current, protocols: [...current.protocols.filter((entry) => entry.client.toLowerCase() !== stored.client.toLowerCase()), stored].sort((a, b) => a.client.localeCompare(b.client)) });
      setClient(stored.client);
      setNewClient('');
      setStatus({ tone: 'ok', text: t('protocol.saved', { client: stored.client }) });
    } catch (error) {
      setStatus({ tone: 'error', text: errorText(error, t('protocol.saveFailed')) });
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      await removeProtocol(client);
      setAnswer((current) => current && { ...current, protocols: current.protocols.filter((entry) => entry.client !== client) });
      setStatus(null);
      setClient(NEW_CLIENT);
      setDraft(structuredClone(answer.default));
    } catch (error) {
      setStatus({ tone: 'error', text: errorText(error, t('protocol.saveFailed')) });
    } finally {
      setBusy(false);
    }
  };
  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file === undefined) return;
    try {
      // Checked in full when saved: the server names what to change.
      setDraft(JSON.parse(await file.text()) as Protocol);
      setStatus(null);
    } catch {
      setStatus({ tone: 'error', text: t('protocol.importFailed', { file: file.name }) });
    }
  };
  const exportUrl = `data:application/json;charset=utf-8,${encodeURIComponent(`${JSON.stringify(draft, null, 2)}\n`)}`;

  return (
    <section className="panel" aria-labelledby={titleId}>
      <header className="panel__header">
        <h2 id={titleId} ref={headingRef} tabIndex={-1} className="panel__title">
          {t('protocol.title')}
        </h2>
        <button type="button" className="button button--secondary button--small" onClick={onClose}>
          {t('protocol.close')}
        </button>
      </header>
      <p className="protocol-view__note">{t('protocol.intro')}</p>
      <div className="protocol-view__row">
        <label htmlFor={`${titleId}-client`}>{t('protocol.client')}</label>
        <select id={`${titleId}-client`} value={client} onChange={(event) => pick(event.target.value)}>
            <option value={NEW_CLIENT}>{t('protocol.newClient')}</option>
            {answer.protocols.map((stored) => (
              <option key={stored.client} value={stored.client}>
                {stored.client}
              </option>
            ))}
        </select>
        {client === NEW_CLIENT && (
          <label>
            {t('protocol.clientLabel')} <input type="text" value={newClient} onChange={(event) => setNewClient(event.target.value)} />
          </label>
        )}
      </div>
      <div className="protocol-view__row">
        <label>
          {t('protocol.name')} <input type="text" value={draft.name} onChange={(event) => setDraft({ ...draft, name: event.target.value })} />
        </label>
        <label>
          {t('protocol.version')} <input type="number" min={1} step={1} value={draft.version} onChange={(event) => setDraft({ ...draft, version: Number(event.target.value) })} />
        </label>
      </div>
      <ol className="protocol-view__items">
        {draft.items.map((item, index) => (
          <li key={index} className="protocol-view__item">
            <fieldset>
              <legend>{t('protocol.item', { number: index + 1 })}</legend>
              <div className="protocol-view__row">
                <label>
                  {t('protocol.item.title')} <input type="text" value={item.title} onChange={(event) => updateItem(index, { title: event.target.value })} />
                </label>
                <label>
                  {t('protocol.item.id')} <input type="text" value={item.id} onChange={(event) => updateItem(index, { id: event.target.value })} />
                </label>
                <label>
                  {t('protocol.item.weight')} <input type="number" min={0} step="any" value={item.weight ?? 1} onChange={(event) => updateItem(index, { weight: Number(event.target.value) })} />
                </label>
                <label>
                  <input
                    type="checkbox"
                    checked={item.manual === true}
                    onChange={(event) =>
                      updateItem(index, ({ checks: _checks, allow: _allow, minSeverity: _minSeverity, manual: _manual, ...rest }) => (event.target.checked ? { ...rest, manual: true } : { ...rest, checks: [] }))
                    }
                  />{' '}
                  {t('protocol.item.manual')}
                </label>
              </div>
              {item.manual !== true && (
                <>
                  <ul className="protocol-view__checks" aria-label={t('protocol.item.checks')}>
                    {(item.checks ?? []).map((check) => (
                      <li key={check}>
                        {titleOf(check)} <code>{check}</code>{' '}
                        <button type="button" className="button button--secondary button--small" onClick={() => updateItem(index, { checks: (item.checks ?? []).filter((entry) => entry !== check) })}>
                          {t('protocol.item.removeCheck', { check: titleOf(check) })}
                        </button>
                      </li>
                    ))}
                  </ul>
                  <div className="protocol-view__row">
                    <label htmlFor={`${titleId}-check-${index}`}>{t('protocol.item.addCheck')}</label>
                    <select
                        id={`${titleId}-check-${index}`}
                        value=""
                        onChange={(event) => event.target.value !== '' && updateItem(index, { checks: [...new Set([...(item.checks ?? []), event.target.value])] })}
                      >
                        <option value="">{t('protocol.item.chooseCheck')}</option>
                        {options.map((option) => (
                          <option key={option.id} value={option.id}>
                            {option.title}
                          </option>
                        ))}
                    </select>
                    <label>
                      {t('protocol.item.allow')} <input type="number" min={0} step={1} value={item.allow ?? 0} onChange={(event) => updateItem(index, { allow: Number(event.target.value) })} />
                    </label>
                  </div>
                </>
              )}
              <button type="button" className="button button--secondary button--small" onClick={() => setDraft({ ...draft, items: draft.items.filter((_, at) => at !== index) })}>
                {t('protocol.item.remove', { number: index + 1 })}
              </button>
            </fieldset>
          </li>
        ))}
      </ol>
      <p className="protocol-view__actions">
        <button type="button" className="button button--secondary" onClick={() => setDraft({ ...draft, items: [...draft.items, { id: `item-${draft.items.length + 1}`, title: '', checks: [] }] })}>
          {t('protocol.addItem')}
        </button>
        <button type="button" className="button" disabled={busy || label === ''} onClick={() => void save()}>
          {t('protocol.save')}
        </button>
        <a className="button button--secondary" href={exportUrl} download={`${(label || 'protocol').replace(/[^\w-]+/g, '-')}.json`}>
          {t('protocol.export')}
        </a>
        <label className="button button--secondary">
          {t('protocol.import')} <input type="file" accept="application/json,.json" className="visually-hidden" onChange={(event) => void importFile(event)} />
        </label>
        {client !== NEW_CLIENT && (
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => void remove()}>
            {t('protocol.remove')}
          </button>
        )}
      </p>
      {status && (
        <p className={`protocol-view__status protocol-view__status--${status.tone}`} role={status.tone === 'error' ? 'alert' : 'status'}>
          {status.text}
        </p>
      )}
    </section>
  );
}
