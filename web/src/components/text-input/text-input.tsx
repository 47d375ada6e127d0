// The design system's text input: a labelled field that validates itself on blur, on change
// (without forcing a new error into view) and optionally on init, and shows its first failing
// message in a tooltip attached to the field.
import { useEffect, useState, type HTMLAttributes, type KeyboardEvent } from 'react';
import { useIntl } from 'react-intl';
import { textInputError, textInputType, type TextInputRules } from '@/components/text-input/validate-text-input';
import './text-input.css';

/** How long a late label (set after first render) or its labelled-by target may take to appear. */
export const REQUIRED_PROPERTY_DELAY_MS = 3000;
export const LABEL_LOOKUP_INTERVAL_MS = 100;

export interface TextInputProps extends TextInputRules {
  id: string;
  name?: string;
  value: string;
  onChange: (value: string) => void;
  /** Keeps the label for assistive technology only. */
  labelHidden?: boolean;
  /** Names the field when there is no visible label. */
  ariaLabel?: string;
  /** Id of an element that names the field, instead of a label. */
  labelledBy?: string;
  /** A short hint under the field. */
  description?: string;
  /** Shown after the field, such as "%" or "px". */
  unit?: string;
  /** Says what the unit means to assistive technology; required for any unit except "%". */
  unitLabel?: string;
  /** Stops Enter in this field from submitting its form. */
  preventSubmit?: boolean;
  /** Validates and shows the error as soon as the field appears. */
  validateOnInit?: boolean;
  /** Set by the form after a submit attempt, so every failing field shows its error. */
  showError?: boolean;
  disabled?: boolean;
  placeholder?: string;
  autoComplete?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  spellCheck?: boolean;
  /**
   * The direction of the value. Addresses, e-mail addresses and numbers read left to right in a
   * right-to-left page too; url, email, tel and number fields are so unless told otherwise.
   */
  dir?: 'ltr' | 'rtl' | 'auto';
}

const LEFT_TO_RIGHT_TYPES: readonly string[] = ['url', 'email', 'tel', 'number'];

// Developer errors, not user-facing: the design system reports a missing label or unit label after
// a grace period (a label may arrive late) and a labelled-by reference that never resolves.
function useRequiredPropertyChecks({ id, label, ariaLabel, labelledBy, unit, unitLabel }: TextInputProps) {
  useEffect(() => {
    const timer = setTimeout(() => {
      if (!label?.trim() && !ariaLabel?.trim() && !labelledBy) {
        console.error(`<TextInput id="${id}">: "label" is required when there is no "ariaLabel" or "labelledBy".`);
      }
      if (unit && unit !== '%' && !unitLabel?.trim()) {
        console.error(`<TextInput id="${id}">: "unitLabel" is required when "unit" is not "%".`);
      }
    }, REQUIRED_PROPERTY_DELAY_MS);
    return () => clearTimeout(timer);
  }, [id, label, ariaLabel, labelledBy, unit, unitLabel]);

  useEffect(() => {
    if (!labelledBy) return;
    const startedAt = Date.now();
    const timer = setInterval(() => {
      if (document.getElementById(labelledBy)) {
        clearInterval(timer);
      } else if (Date.now() - startedAt >= REQUIRED_PROPERTY_DELAY_MS) {
        clearInterval(timer);
        console.error(`<TextInput id="${id}">: "labelledBy" names "${labelledBy}", which is not in the document.`);
      }
    }, LABEL_LOOKUP_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [id, labelledBy]);
}

export function TextInput(props: TextInputProps) {
  const { id, value, onChange, label, labelHidden, ariaLabel, labelledBy, description, unit, unitLabel } = props;
  const intl = useIntl();
  useRequiredPropertyChecks(props);

  const type = textInputType(props.type);
  const error = textInputError(value, props, intl);
  // Blur (or init, or the form) makes an error visible; a valid value hides it again, and a new
  // error then waits for the next blur instead of interrupting the typing.
  const [revealed, setRevealed] = useState(Boolean(props.validateOnInit));
  const showError = error !== null && (revealed || Boolean(props.showError));

  const hintId = `${id}-hint`;
  const unitId = `${id}-unit`;
  const errorId = `${id}-error`;
  const describedBy = [description && hintId, unit && unitLabel && unitId, showError && errorId].filter(Boolean).join(' ');

  // Enter submits the field's form, unless prevent-submit is set. Done here rather than left to
  // the browser, which submits a form with several fields only when it has an enabled submit button.
  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!props.preventSubmit) event.currentTarget.form?.requestSubmit();
  };

  return (
    <div className={`text-input${showError ? ' text-input--invalid' : ''}`}>
      {label && (
        <label
          htmlFor={id}
          className={labelHidden ? 'visually-hidden' : `text-input__label${props.required ? ' text-input__label--required' : ''}`}
        >
          {label}
        </label>
      )}
      <div className="text-input__field">
        <input
          id={id}
          name={props.name ?? id}
          type={type}
          value={value}
          onChange={(event) => {
            const next = event.target.value;
            if (textInputError(next, props, intl) === null) setRevealed(false);
            onChange(next);
          }}
          onBlur={() => setRevealed(true)}
          onKeyDown={handleKeyDown}
          required={props.required}
          min={props.min}
          max={props.max}
          minLength={props.minLength}
          maxLength={props.maxLength}
          pattern={props.pattern}
          step={props.step}
          disabled={props.disabled}
          placeholder={props.placeholder}
          autoComplete={props.autoComplete}
          inputMode={props.inputMode}
          spellCheck={props.spellCheck}
          dir={props.dir ?? (LEFT_TO_RIGHT_TYPES.includes(type) ? 'ltr' : undefined)}
          aria-label={label ? undefined : ariaLabel}
          aria-labelledby={label || ariaLabel ? undefined : labelledBy}
          aria-invalid={showError || undefined}
          aria-describedby={describedBy || undefined}
          className="text-input__control"
        />
        {unit && (
          <span className="text-input__unit" aria-hidden="true">
            {unit}
          </span>
        )}
        {unit && unitLabel && (
          <span id={unitId} className="visually-hidden">
            {unitLabel}
          </span>
        )}
      </div>
      {description && (
        <p id={hintId} className="text-input__hint">
          {description}
        </p>
      )}
      {showError && (
        <div id={errorId} className="text-input__error">
          {error}
        </div>
      )}
    </div>
  );
}
