// The list of a form's failing fields, shown after a submit attempt: it takes focus so the user
// hears how many problems there are, and each entry moves focus to its field.
import { useEffect, useId, useRef } from 'react';
import { useIntl } from 'react-intl';
import './error-summary.css';

export interface FieldError {
  fieldId: string;
  message: string;
}

interface ErrorSummaryProps {
  errors: readonly FieldError[];
  /** Changes on every submit attempt, so focus returns to the summary each time. */
  attempt: number;
}

export function ErrorSummary({ errors, attempt }: ErrorSummaryProps) {
  const intl = useIntl();
  const titleId = useId();
  const ref = useRef<HTMLElement>(null);
  const visible = errors.length > 0;

  useEffect(() => {
    if (attempt > 0) ref.current?.focus();
  }, [attempt]);

  if (!visible) return null;
  return (
    <section ref={ref} className="error-summary" aria-labelledby={titleId} tabIndex={-1}>
      <h2 id={titleId} className="error-summary__title">
        {intl.formatMessage({ id: 'errorSummary.title' }, { count: errors.length })}
      </h2>
      <ul className="error-summary__list">
        {errors.map((error) => (
          <li key={error.fieldId}>
            <a
              href={`#${error.fieldId}`}
              onClick={(event) => {
                const field = document.getElementById(error.fieldId);
                if (!field) return;
                // Focus the field itself rather than jumping to the anchor, which would only scroll.
                event.preventDefault();
                field.scrollIntoView?.({ block: 'center' });
                field.focus();
              }}
            >
              {error.message}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
