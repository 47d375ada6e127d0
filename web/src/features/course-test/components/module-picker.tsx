import type { CSSProperties } from 'react';
import { useIntl } from 'react-intl';
import type { ModuleChoice } from '@/features/course-test/module-choices';
import './module-picker.css';

interface ModulePickerProps {
  modules: readonly ModuleChoice[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onSelectAll: () => void;
  onDeselectAll: () => void;
  onRun: () => void;
  running: boolean;
}

/** The "Modules" checkbox group, with its bulk buttons and the button that starts a run. */
export function ModulePicker({ modules, selected, onToggle, onSelectAll, onDeselectAll, onRun, running }: ModulePickerProps) {
  const intl = useIntl();
  const selectedCount = modules.filter((module) => selected.has(module.id)).length;

  return (
    <div className="module-picker">
      <fieldset className="module-picker__group">
        <legend className="module-picker__legend">{intl.formatMessage({ id: 'modules.legend' })}</legend>
        {modules.length === 0 ? (
          <p className="module-picker__empty">{intl.formatMessage({ id: 'modules.none' })}</p>
        ) : (
          <>
            <p className="module-picker__count">
              {intl.formatMessage({ id: 'modules.selectedCount' }, { selected: selectedCount, total: modules.length })}
            </p>
            <ul className="module-picker__list">
              {modules.map((module) => (
                <li key={module.id} style={{ '--depth': module.depth } as CSSProperties}>
                  <label className="module-picker__option">
                    <input type="checkbox" checked={selected.has(module.id)} onChange={() => onToggle(module.id)} />
                    <span>{module.title}</span>
                  </label>
                </li>
              ))}
            </ul>
          </>
        )}
      </fieldset>
      <div className="module-picker__actions">
        <button type="button" className="button button--secondary" onClick={onSelectAll} disabled={selectedCount === modules.length}>
          {intl.formatMessage({ id: 'modules.selectAll' })}
        </button>
        <button type="button" className="button button--secondary" onClick={onDeselectAll} disabled={selectedCount === 0}>
          {intl.formatMessage({ id: 'modules.deselectAll' })}
        </button>
        <button type="button" className="button button--primary" onClick={onRun} disabled={running || selectedCount === 0}>
          {intl.formatMessage({ id: running ? 'modules.running' : 'modules.run' })}
        </button>
      </div>
    </div>
  );
}
