// The "Modules" checkbox group as a tree that shows what a run will test: a module takes its
// sub-modules, a partly chosen one is mixed (its own topics and the checked sub-modules), and the
// count says modules and topics. Below it, the course-wide items (assignments, quizzes...) as one
// more group, then the bulk buttons, which choose or clear both, "Check everything again" and 'Run
// CTPO'. When 'Run CTPO' cannot start, the reason is said beside it.
import { useEffect, useId, useRef, type Ref } from 'react';
import { useIntl } from 'react-intl';
import { COURSE_SCOPES, type CourseScope } from '@contract';
import { checkState, selectedTopicCount, type CheckState, type ModuleChoice } from '@/features/course-test/module-choices';
import './module-picker.css';

interface ModulePickerProps {
  modules: readonly ModuleChoice[];
  /** Why 'Run CTPO' cannot start although something is chosen (e.g. the fields changed); null when it can. */
  blockedReason?: string | null;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onSelectAll: () => void;
  onDeselectAll: () => void;
  scopes: ReadonlySet<CourseScope>;
  onToggleScope: (scope: CourseScope) => void;
  /** "Check everything again": the run ignores the verdicts kept from earlier runs. */
  full: boolean;
  onToggleFull: () => void;
  onRun: () => void;
  running: boolean;
  /** The group, so the form can move focus to it once the modules have loaded. */
  groupRef?: Ref<HTMLFieldSetElement>;
}

/**
 * A checkbox that can also show "mixed": HTML sets it only from script (indeterminate), and
 * aria-checked says it to assistive technology and to whatever reads the attribute.
 */
function TriStateCheckbox({ state, onChange, label }: { state: CheckState; onChange: () => void; label: string }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'mixed';
  }, [state]);
  return (
    <label className="module-picker__option">
      <input ref={ref} type="checkbox" checked={state === 'checked'} aria-checked={state === 'mixed' ? 'mixed' : undefined} onChange={onChange} />
      {/* A module's title is the course's text, in its own direction (an English title in an Arabic page). */}
      <bdi>{label}</bdi>
    </label>
  );
}

function ModuleTree({ modules, parentId, selected, onToggle }: { modules: readonly ModuleChoice[]; parentId: string | null; selected: ReadonlySet<string>; onToggle: (id: string) => void }) {
  const level = modules.filter((module) => module.parentId === parentId);
  if (level.length === 0) return null;
  return (
    <ul className={parentId === null ? 'module-picker__list' : 'module-picker__sublist'}>
      {level.map((module) => (
        <li key={module.id}>
          <TriStateCheckbox state={checkState(modules, selected, module.id)} onChange={() => onToggle(module.id)} label={module.title} />
          <ModuleTree modules={modules} parentId={module.id} selected={selected} onToggle={onToggle} />
        </li>
      ))}
    </ul>
  );
}

export function ModulePicker({ modules, selected, onToggle, onSelectAll, onDeselectAll, scopes, onToggleScope, full, onToggleFull, onRun, running, groupRef, blockedReason = null }: ModulePickerProps) {
  const intl = useIntl();
  const countId = useId();
  const reasonId = useId();
  const fullHintId = useId();
  const selectedCount = modules.filter((module) => selected.has(module.id)).length;
  const topics = selectedTopicCount(modules, selected);
  const allChosen = selectedCount === modules.length && scopes.size === COURSE_SCOPES.length;
  const nothingChosen = selectedCount === 0 && scopes.size === 0;

  return (
    <div className="module-picker">
      <fieldset className="module-picker__group" ref={groupRef} tabIndex={-1} aria-describedby={modules.length > 0 ? countId : undefined}>
        <legend className="module-picker__legend">{intl.formatMessage({ id: 'modules.legend' })}</legend>
        {modules.length === 0 ? (
          <p className="module-picker__empty">{intl.formatMessage({ id: 'modules.none' })}</p>
        ) : (
          <>
            <p className="module-picker__count" id={countId}>
              {intl.formatMessage({ id: 'modules.selectedCount' }, { selected: selectedCount, total: modules.length, topics })}
            </p>
            <ModuleTree modules={modules} parentId={null} selected={selected} onToggle={onToggle} />
          </>
        )}
      </fieldset>
      <fieldset className="module-picker__group">
        <legend className="module-picker__legend">{intl.formatMessage({ id: 'scopes.legend' })}</legend>
        <p className="module-picker__count">{intl.formatMessage({ id: 'scopes.hint' })}</p>
        <ul className="module-picker__list module-picker__list--scopes">
          {COURSE_SCOPES.map((scope) => (
            <li key={scope}>
              <label className="module-picker__option">
                <input type="checkbox" checked={scopes.has(scope)} onChange={() => onToggleScope(scope)} />
                <span>{intl.formatMessage({ id: `scopes.${scope}` })}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="module-picker__actions">
        <button type="button" className="button button--secondary" onClick={onSelectAll} disabled={allChosen}>
          {intl.formatMessage({ id: 'modules.selectAll' })}
        </button>
        <button type="button" className="button button--secondary" onClick={onDeselectAll} disabled={nothingChosen}>
          {intl.formatMessage({ id: 'modules.deselectAll' })}
        </button>
      </div>
      <div className="module-picker__full">
        <label className="module-picker__option">
          <input type="checkbox" checked={full} onChange={onToggleFull} aria-describedby={fullHintId} />
          <span>{intl.formatMessage({ id: 'modules.full' })}</span>
        </label>
        <p id={fullHintId} className="module-picker__count">
          {intl.formatMessage({ id: 'modules.full.hint' })}
        </p>
      </div>
      <div className="module-picker__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={onRun}
          disabled={running || nothingChosen || blockedReason !== null}
          aria-describedby={blockedReason !== null && !running ? reasonId : undefined}
        >
          {intl.formatMessage({ id: running ? 'modules.running' : 'modules.run' })}
        </button>
        {/* Always in the page (a live region, not a second status), so the reason is heard when it appears. */}
        <p id={reasonId} className="module-picker__blocked" aria-live="polite">
          {blockedReason !== null && !running ? blockedReason : null}
        </p>
      </div>
    </div>
  );
}
