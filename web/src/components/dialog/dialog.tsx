// A modal dialog: focus moves in when it opens, stays inside (Tab and Shift+Tab wrap), Escape or
// the close button closes it, and focus returns to whatever opened it. The rest of the page is
// made inert meanwhile, so neither a pointer nor a screen reader can wander behind it.
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import './dialog.css';

interface DialogProps {
  title: string;
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
  /** The dialog's buttons, for a question (the first one the safe answer); absent: one close button. */
  actions?: ReactNode;
  /** The dialog's role: `alertdialog` for a question that interrupts. */
  role?: 'dialog' | 'alertdialog';
}

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusableIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
}

/** Render it only while open; unmounting closes it. */
export function Dialog({ title, closeLabel, onClose, children, actions, role = 'dialog' }: DialogProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const layerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const layer = layerRef.current;
    const madeInert: Element[] = [];
    for (const sibling of document.body.children) {
      if (sibling !== layer && !sibling.hasAttribute('inert')) {
        sibling.setAttribute('inert', '');
        madeInert.push(sibling);
      }
    }
    dialogRef.current?.focus();
    return () => {
      for (const element of madeInert) element.removeAttribute('inert');
      opener?.focus();
    };
  }, []);

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = focusableIn(dialogRef.current);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialogRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className="dialog-layer" ref={layerRef}>
      <div className="dialog-backdrop" onClick={onClose} aria-hidden="true" />
      <div
        ref={dialogRef}
        className="dialog"
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={handleKeyDown}
      >
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        <div className="dialog__body">{children}</div>
        <div className="dialog__actions">
          {actions ?? (
            <button type="button" className="button button--primary" onClick={onClose}>
              {closeLabel}
            </button>
          )}
        </div>
      </div>
    </div>,
    document.body,
  );
}
