// A term with a short explanation, shown while the pointer rests on the term or it has keyboard
// focus, hidden again with Escape. The explanation is the term's description for screen readers.
import { useId, useState, type ReactNode } from 'react';
import './tooltip-help.css';

interface TooltipHelpProps {
  children: ReactNode;
  help: ReactNode;
}

export function TooltipHelp({ children, help }: TooltipHelpProps) {
  const tipId = useId();
  const [dismissed, setDismissed] = useState(false);
  return (
    <span className={`tooltip-help${dismissed ? ' tooltip-help--dismissed' : ''}`} onMouseLeave={() => setDismissed(false)}>
      <button
        type="button"
        className="tooltip-help__term"
        aria-describedby={tipId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setDismissed(true);
        }}
        onBlur={() => setDismissed(false)}
      >
        {children}
      </button>
      <span id={tipId} role="tooltip" className="tooltip-help__tip">
        {help}
      </span>
    </span>
  );
}
