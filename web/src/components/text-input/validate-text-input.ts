// The design system's text-input validation as a pure function of the value and the input's
// rules, so a field and its form's error summary always agree. It mirrors the browser's
// constraint validation, plus a "too short" that also applies before the user has typed.
import type { IntlShape } from 'react-intl';

export const TEXT_INPUT_TYPES = ['email', 'number', 'password', 'tel', 'text', 'search', 'url'] as const;
export type TextInputType = (typeof TEXT_INPUT_TYPES)[number];

/** Any type outside the supported list falls back to text, as the design system does. */
export function textInputType(type: string | undefined): TextInputType {
  return (TEXT_INPUT_TYPES as readonly string[]).includes(type ?? '') ? (type as TextInputType) : 'text';
}

export interface TextInputRules {
  type?: string;
  label?: string;
  required?: boolean;
  min?: number | string;
  max?: number | string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** Shown when the value does not match `pattern`. */
  patternFailureText?: string;
  step?: number | string;
}

// The HTML standard's "valid e-mail address" (https://html.spec.whatwg.org/#valid-e-mail-address).
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
// The HTML standard's "valid floating-point number".
const FLOAT = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?$/;

function toNumber(value: number | string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : undefined;
}

function matchesPattern(value: string, pattern: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`, 'v').test(value);
  } catch {
    // Browsers ignore a pattern that does not compile; so do we.
    return true;
  }
}

/** Every failing rule's message, in the order the design system checks them. */
export function textInputErrors(value: string, rules: TextInputRules, intl: IntlShape): string[] {
  const type = textInputType(rules.type);
  const label = rules.label?.trim() || intl.formatMessage({ id: 'input.defaultFieldLabel' });
  const errors: string[] = [];

  if (value === '') {
    if (rules.required) errors.push(intl.formatMessage({ id: 'input.valueMissing' }, { label }));
    return errors;
  }

  if (type === 'email' && !EMAIL.test(value)) errors.push(intl.formatMessage({ id: 'input.email.typeMismatch' }));
  if (type === 'url' && !URL.canParse(value)) errors.push(intl.formatMessage({ id: 'input.url.typeMismatch' }));

  if (rules.minLength !== undefined && rules.minLength > 0 && value.length < rules.minLength) {
    errors.push(intl.formatMessage({ id: 'input.tooShort' }, { label, minlength: rules.minLength }));
  }
  if (rules.maxLength !== undefined && rules.maxLength >= 0 && value.length > rules.maxLength) {
    errors.push(intl.formatMessage({ id: 'input.defaultError' }, { label }));
  }
  if (rules.pattern && !matchesPattern(value, rules.pattern)) {
    errors.push(rules.patternFailureText ?? intl.formatMessage({ id: 'input.defaultError' }, { label }));
  }

  if (type === 'number') {
    if (!FLOAT.test(value)) {
      errors.push(intl.formatMessage({ id: 'input.defaultError' }, { label }));
      return errors;
    }
    const number = Number(value);
    const min = toNumber(rules.min);
    const max = toNumber(rules.max);
    if (min !== undefined && number < min) {
      errors.push(intl.formatMessage({ id: 'input.rangeUnderflow' }, { min: intl.formatNumber(min) }));
    }
    if (max !== undefined && number > max) {
      errors.push(intl.formatMessage({ id: 'input.rangeOverflow' }, { max: intl.formatNumber(max) }));
    }
    const step = rules.step === 'any' ? undefined : toNumber(rules.step);
    if (step !== undefined && step > 0) {
      const offset = (number - (min ?? 0)) / step;
      // Tolerate floating-point noise such as 0.3 / 0.1 = 2.9999999999999996.
      if (Math.abs(offset - Math.round(offset)) > 1e-9) errors.push(intl.formatMessage({ id: 'input.defaultError' }, { label }));
    }
  }
  return errors;
}

/** The message a field shows: the first failing one, or null when the value is valid. */
export function textInputError(value: string, rules: TextInputRules, intl: IntlShape): string | null {
  return textInputErrors(value, rules, intl)[0] ?? null;
}
