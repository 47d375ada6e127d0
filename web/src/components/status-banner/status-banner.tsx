// A message strip: green for success, red for errors, blue while something is under way, grey for
// anything else; optionally dismissible with a close mark.
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import './status-banner.css';

export type BannerTone = 'success' | 'error' | 'info' | 'neutral';

interface StatusBannerProps {
  tone: BannerTone;
  children: ReactNode;
  onDismiss?: () => void;
}

export function StatusBanner({ tone, children, onDismiss }: StatusBannerProps) {
  const intl = useIntl();
  return (
    // Errors interrupt (alert); everything else waits its turn (status).
    <div className={`status-banner status-banner--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <div className="status-banner__body">{children}</div>
      {onDismiss && (
        <button
          type="button"
          className="status-banner__close"
          aria-label={intl.formatMessage({ id: 'banner.dismiss' })}
          onClick={onDismiss}
        >
          <svg viewBox="0 0 18 18" width="18" height="18" aria-hidden="true" focusable="false">
            <path d="M4.5 4.5l9 9m0-9l-9 9" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      )}
    </div>
  );
}
