// The main form: the five course fields, loading the course's modules, choosing some and starting
// a run. The job monitor of a started run is rendered where the parent puts it (`monitor`). Focus
// follows the work: to the module list (or the reason it failed) once the modules have loaded.
// 'Run again' fills the course fields from an earlier run and picks its modules once they load.
// A run starts only with the values its modules were loaded with: once a field changes, the list is
// out of date and 'Run CTPO' waits, saying why, until the modules are loaded again. A course's
// address pasted into the site or the org unit field fills both.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { ErrorSummary, type FieldError } from '@/components/error-summary/error-summary';
import { Spinner } from '@/components/spinner/spinner';
import { StatusBanner, type BannerTone } from '@/components/status-banner/status-banner';
import { TextInput } from '@/components/text-input/text-input';
import { textInputError, type TextInputRules } from '@/components/text-input/validate-text-input';
import { ApiError } from '@/lib/api-client';
import { useLanguage } from '@/lib/i18n/use-language';
import { useBeforeUnload } from '@/lib/use-before-unload';
import { loadTableOfContents } from '@/features/course-test/api/load-table-of-contents';
import { startTestRun } from '@/features/course-test/api/start-test-run';
import {
  EMPTY_FIELDS,
  FIELDS,
  courseAddress,
  sameFields,
  trimmedFields,
  type CourseAddress,
  type CourseFields,
  type FieldDefinition,
  type FieldName,
} from '@/features/course-test/course-fields';
import { COURSE_SCOPES, INPUT_LIMITS, type CourseScope } from '@contract';
import { moduleChoices, moduleRequest, selectionOf, toggleModule, type ModuleChoice } from '@/features/course-test/module-choices';
import { ModulePicker } from '@/features/course-test/components/module-picker';
import './course-test-form.css';

export interface StartedRun {
  taskArn: string;
  filename: string;
  /** Whose course: the client label and org unit it was started with. */
  client: string;
  orgUnitId: string;
}

/** An earlier run's values for the form ('Run again'): never the password. */
export interface FormPrefill {
  /** Changes each time the user asks, so the same run can fill the form again. */
  key: number;
  /** The Brightspace user name the run signed in with, when known. */
  userName?: string;
  siteUrl: string;
  orgUnitId: string;
  clientName: string;
  /** Selected once the modules are loaded (those still in the course). */
  moduleIds: readonly string[];
  /** Sub-modules of those the run left out. */
  excludedModuleIds?: readonly string[];
  /** The course-wide items it read; absent: the form's default. */
  scopes?: readonly string[];
  /** Says where the values came from, e.g. the run's client and date. */
  source: string;
}

interface CourseTestFormProps {
  /** The job monitor, shown under the banner once a run has started. */
  monitor?: ReactNode;
  /** Values to fill in from an earlier run. */
  prefill?: FormPrefill | null;
  /** A run was started: it replaces whatever was monitored. A start refused keeps the monitor as it is. */
  onRunStarted: (run: StartedRun) => void;
  /** The started run's job has since failed: its start's success banner goes, the monitor tells the outcome. */
  runFailed?: boolean;
}

/** The id of the form, the target of the page's skip link. */
export const COURSE_FORM_ID = 'ctpo-course-form';

type TocState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'loaded'; modules: ModuleChoice[] }
  | { status: 'failed'; reason?: string };

interface Banner {
  tone: BannerTone;
  text: string;
  detail?: string;
}

/** What to tell the user about a failed call beyond the headline: the server's words, or a network hint. */
function failureDetail(error: unknown, networkMessage: string): string | undefined {
  if (error instanceof ApiError) return error.serverMessage ?? (error.status === 0 ? networkMessage : undefined);
  return undefined;
}

export function CourseTestForm({ monitor, prefill = null, onRunStarted, runFailed = false }: CourseTestFormProps) {
  const intl = useIntl();
  const { locale } = useLanguage();
  const [fields, setFields] = useState<CourseFields>(EMPTY_FIELDS);
  const [submitAttempt, setSubmitAttempt] = useState(0);
  const [lastLoaded, setLastLoaded] = useState<CourseFields | null>(null);
  // The values of the last run started: anything typed since is an unsaved edit.
  const [savedFields, setSavedFields] = useState<CourseFields>(EMPTY_FIELDS);
  const [toc, setToc] = useState<TocState>({ status: 'idle' });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [scopes, setScopes] = useState<ReadonlySet<CourseScope>>(new Set(COURSE_SCOPES));
  // "Check everything again": off unless asked for, so a run reuses what has not changed.
  const [full, setFull] = useState(false);
  const [running, setRunning] = useState(false);
  const [banner, setBanner] = useState<Banner | null>(null);
  // Set when a load ends, so focus moves to what it gave (the list, or why it failed) once shown.
  const focusAfterLoad = useRef(false);
  const moduleGroup = useRef<HTMLFieldSetElement>(null);
  const tocError = useRef<HTMLDivElement>(null);
  // 'Run again': the modules and course-wide items to select once loaded, and which prefill was applied last.
  const [preferred, setPreferred] = useState<{ modules: readonly string[]; excluded: readonly string[]; scopes: readonly string[] | null } | null>(null);
  const [appliedPrefill, setAppliedPrefill] = useState<number | null>(null);
  const [prefillNote, setPrefillNote] = useState<{ source: string; userName: boolean } | null>(null);
  // The course fields a pasted course address filled in, said once.
  const [addressNote, setAddressNote] = useState<CourseAddress | null>(null);

  // A new prefill replaces every field but the password, which is cleared (it is never kept), and
  // forgets the modules loaded for another course.
  if (prefill !== null && prefill.key !== appliedPrefill) {
    setAppliedPrefill(prefill.key);
    setFields({ userName: prefill.userName ?? '', password: '', siteUrl: prefill.siteUrl, orgUnitId: prefill.orgUnitId, clientName: prefill.clientName });
    setPreferred({ modules: prefill.moduleIds, excluded: prefill.excludedModuleIds ?? [], scopes: prefill.scopes ?? null });
    setToc({ status: 'idle' });
    setSelected(new Set());
    setLastLoaded(null);
    setSubmitAttempt(0);
    setPrefillNote({ source: prefill.source, userName: Boolean(prefill.userName) });
    setAddressNote(null);
  }

  useEffect(() => {
    if (!focusAfterLoad.current || (toc.status !== 'loaded' && toc.status !== 'failed')) return;
    focusAfterLoad.current = false;
    (toc.status === 'loaded' ? moduleGroup.current : tocError.current)?.focus();
  }, [toc]);

  useEffect(() => {
    if (appliedPrefill === null) return;
    // The first field still to fill: usually the password, which is never kept.
    const next = FIELDS.find((field) => (document.getElementById(field.id) as HTMLInputElement | null)?.value === '');
    document.getElementById(next?.id ?? FIELDS[0]!.id)?.focus();
  }, [appliedPrefill]);

  const label = (field: FieldDefinition) => intl.formatMessage({ id: field.labelId });
  const rulesOf = (field: FieldDefinition): TextInputRules => ({
    label: label(field),
    ...(field.type ? { type: field.type } : {}),
    ...(field.required ? { required: true } : {}),
    ...(field.pattern ? { pattern: field.pattern } : {}),
    ...(field.patternFailureId ? { patternFailureText: intl.formatMessage({ id: field.patternFailureId }) } : {}),
  });
  const errors: FieldError[] = FIELDS.flatMap((field) => {
    const message = textInputError(fields[field.name], rulesOf(field), intl);
    return message === null ? [] : [{ fieldId: field.id, message }];
  });

  const current = trimmedFields(fields);
  const complete = Object.values(current).every((value) => value !== '') && errors.length === 0;
  const alreadyLoaded = lastLoaded !== null && sameFields(current, lastLoaded);
  const canLoad = complete && toc.status !== 'loading' && !running && !alreadyLoaded;
  // The list on screen belongs to other values than those typed now: a run would use values its
  // modules were never loaded with.
  const outOfDate = toc.status === 'loaded' && !alreadyLoaded;

  useBeforeUnload(!sameFields(current, trimmedFields(savedFields)));

  const setField = (name: FieldName, value: string) => {
    const previous = fields[name];
    // A course's address, pasted (or dropped, or filled in) whole into the site or the org unit
    // field, gives both. Typed one character at a time it is left as typed until it is whole.
    const pasted = value.length - previous.length > 1 || name === 'orgUnitId';
    const address = (name === 'siteUrl' || name === 'orgUnitId') && pasted ? courseAddress(value) : null;
    if (address !== null) {
      setFields((fields) => ({ ...fields, siteUrl: address.siteUrl, orgUnitId: address.orgUnitId }));
      setAddressNote(address);
      return;
    }
    setFields((fields) => ({ ...fields, [name]: value }));
  };

  const loadModules = async () => {
    const request = fields;
    focusAfterLoad.current = true;
    setToc({ status: 'loading' });
    setSelected(new Set());
    try {
      const modules = moduleChoices(await loadTableOfContents(request, locale));
      setToc({ status: 'loaded', modules });
      const again = preferred === null ? new Set<string>() : selectionOf(modules, preferred.modules, preferred.excluded);
      // A run of course-wide items alone chose no module; one whose modules are all gone gets every module.
      const keepAgain = preferred !== null && (again.size > 0 || preferred.modules.length === 0);
      setSelected(keepAgain ? again : new Set(modules.map((module) => module.id)));
      const wantedScopes = preferred?.scopes;
      setScopes(new Set(wantedScopes == null ? COURSE_SCOPES : COURSE_SCOPES.filter((scope) => wantedScopes.includes(scope))));
      setPreferred(null);
      setLastLoaded(trimmedFields(request));
    } catch (error) {
      console.error('CTPO: loading the table of contents failed', error instanceof Error ? error.message : error);
      const reason = failureDetail(error, intl.formatMessage({ id: 'form.networkError' }));
      setToc(reason ? { status: 'failed', reason } : { status: 'failed' });
    }
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (errors.length > 0) {
      setSubmitAttempt((attempt) => attempt + 1);
      return;
    }
    setSubmitAttempt(0);
    if (canLoad) void loadModules();
  };

  const runTests = async (modules: readonly ModuleChoice[]) => {
    const request = fields;
    const chosen = moduleRequest(modules, selected);
    const chosenScopes = COURSE_SCOPES.filter((scope) => scopes.has(scope));
    const titles = Object.fromEntries(chosen.named.slice(0, INPUT_LIMITS.moduleTitles).map((module) => [module.id, module.title]));
    setPrefillNote(null);
    setAddressNote(null);
    setRunning(true);
    setSavedFields(request);
    setBanner({ tone: 'info', text: intl.formatMessage({ id: 'run.starting' }) });
    try {
      const started = await startTestRun(request, { modules: chosen.modules, excluded: chosen.excluded, titles }, chosenScopes, locale, { full });
      setBanner({ tone: 'success', text: intl.formatMessage({ id: 'run.success' }, { message: started.message }) });
      if (started.taskArn) onRunStarted({ taskArn: started.taskArn, filename: started.filename ?? '', client: request.clientName.trim(), orgUnitId: request.orgUnitId.trim() });
    } catch (error) {
      console.error('CTPO: starting the test run failed', error instanceof Error ? error.message : error);
      const detail = failureDetail(error, intl.formatMessage({ id: 'form.networkError' }));
      setBanner({ tone: 'error', text: intl.formatMessage({ id: 'run.error' }), ...(detail ? { detail } : {}) });
    } finally {
      setRunning(false);
    }
  };

  return (
    <div className="course-test">
      {/* A run that started and then failed is told once, by its monitor: no success beside it. */}
      {banner && !(runFailed && banner.tone === 'success') && (
        <StatusBanner tone={banner.tone} onDismiss={() => setBanner(null)}>
          <p>{banner.text}</p>
          {banner.detail && <p>{banner.detail}</p>}
        </StatusBanner>
      )}

      {monitor}

      <form id={COURSE_FORM_ID} tabIndex={-1} className="course-test__form" noValidate onSubmit={handleSubmit}>
        {submitAttempt > 0 && <ErrorSummary errors={errors} attempt={submitAttempt} />}
        {prefillNote !== null && (
          <p className="course-test__prefilled" role="status">
            {intl.formatMessage({ id: prefillNote.userName ? 'form.prefilled' : 'form.prefilledNoUser' }, { source: prefillNote.source })}
          </p>
        )}
        {addressNote !== null && (
          <p className="course-test__prefilled" role="status">
            {intl.formatMessage({ id: 'form.courseAddressFilled' }, { siteUrl: addressNote.siteUrl, orgUnitId: addressNote.orgUnitId })}
          </p>
        )}

        <div className="course-test__fields">
          {FIELDS.map((field) => (
            <TextInput
              key={field.id}
              {...rulesOf(field)}
              id={field.id}
              name={field.name}
              value={fields[field.name]}
              onChange={(value) => setField(field.name, value)}
              showError={submitAttempt > 0}
              autoComplete={field.autoComplete}
              {...(field.helpId ? { description: intl.formatMessage({ id: field.helpId }) } : {})}
              {...(field.leftToRight ? { dir: 'ltr' as const } : {})}
              {...(field.inputMode ? { inputMode: field.inputMode } : {})}
              {...(field.spellCheck !== undefined ? { spellCheck: field.spellCheck } : {})}
            />
          ))}
        </div>

        <div className="course-test__load">
          <button
            type="button"
            className="button button--primary"
            onClick={() => void loadModules()}
            disabled={!canLoad}
            aria-describedby={complete ? undefined : 'ctpo-choose-modules-hint'}
          >
            {intl.formatMessage({ id: 'form.chooseModules' })}
          </button>
          {!complete && (
            <p id="ctpo-choose-modules-hint" className="course-test__hint">
              {intl.formatMessage({ id: 'form.chooseModules.hint' })}
            </p>
          )}
        </div>

        {toc.status === 'loading' && <Spinner label={intl.formatMessage({ id: 'form.fetchingModules' })} />}

        {toc.status === 'failed' && (
          <div className="course-test__toc-error" role="alert" ref={tocError} tabIndex={-1}>
            <p className="course-test__toc-error-title">{intl.formatMessage({ id: 'form.tocFailed' })}</p>
            {toc.reason && <p>{toc.reason}</p>}
          </div>
        )}

        {toc.status === 'loaded' && (
          <ModulePicker
            modules={toc.modules}
            selected={selected}
            running={running}
            groupRef={moduleGroup}
            onToggle={(id) => setSelected((previous) => toggleModule(toc.modules, previous, id))}
            scopes={scopes}
            onToggleScope={(scope) =>
              setScopes((previous) => {
                const next = new Set(previous);
                if (next.has(scope)) next.delete(scope);
                else next.add(scope);
                return next;
              })
            }
            onSelectAll={() => {
              setSelected(new Set(toc.modules.map((module) => module.id)));
              setScopes(new Set(COURSE_SCOPES));
            }}
            onDeselectAll={() => {
              setSelected(new Set());
              setScopes(new Set());
            }}
            full={full}
            onToggleFull={() => setFull((previous) => !previous)}
            onRun={() => void runTests(toc.modules)}
            blockedReason={outOfDate ? intl.formatMessage({ id: 'modules.outOfDate' }) : null}
          />
        )}
      </form>
    </div>
  );
}
