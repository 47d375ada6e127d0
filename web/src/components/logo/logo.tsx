import { useId } from 'react';
import { useIntl } from 'react-intl';

/** CTPO's mark: a course page with a check, in the primary blue. */
export function Logo({ size = 64 }: { size?: number }) {
  const intl = useIntl();
  const titleId = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" role="img" aria-labelledby={titleId} className="logo">
      <title id={titleId}>{intl.formatMessage({ id: 'app.logoAlt' })}</title>
      <rect x="2" y="2" width="60" height="60" rx="14" fill="#006fbf" />
      <path d="M18 14h20l8 8v28a2 2 0 0 1-2 2H18a2 2 0 0 1-2-2V16a2 2 0 0 1 2-2z" fill="#fff" />
      <path d="M38 14v8h8" fill="#cfe4f6" />
      <path d="M22 36l6 6 12-13" fill="none" stroke="#006fbf" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
