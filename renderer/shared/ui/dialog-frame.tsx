// The frame every dialog shares: role=dialog with a heading as its name, focus kept inside, an optional backdrop.
import type { KeyboardEvent, ReactNode } from 'react';
import { useEffect, useId, useRef } from 'react';

/** Props of DialogFrame. */
export interface DialogFrameProps {
  title: string;
  /** In-page modal over the chat (browser mode) rather than a whole window (Electron's modal windows). */
  overlay: boolean;
  /** Escape does this, when given. */
  onEscape?: () => void;
  className?: string;
  /**
   * Where focus goes when the dialog opens: its marked (`data-autofocus`) or first control, or the dialog itself, so
   * that keys the person was typing elsewhere when it opened answer nothing (the approval dialog).
   */
  focusOnOpen?: 'control' | 'dialog';
  children: ReactNode;
}

const FOCUSABLE =
  'button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** A modal dialog: focus moves in when it opens and Tab cycles within it. */
export function DialogFrame({
  title,
  overlay,
  onEscape,
  className,
  focusOnOpen = 'control',
  children,
}: DialogFrameProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || el.contains(document.activeElement)) return;
    if (focusOnOpen === 'dialog') return void el.focus();
    const first =
      el.querySelector<HTMLElement>('[data-autofocus]') ?? el.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
  }, [title, focusOnOpen]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && onEscape) {
      event.preventDefault();
      onEscape();
      return;
    }
    if (event.key !== 'Tab' || !box.current) return;
    const items = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const dialog = (
    <div
      ref={box}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      // Focusable itself only when it takes the focus on opening; Tab then moves on to its controls.
      tabIndex={focusOnOpen === 'dialog' ? -1 : undefined}
      className={`dialog ${className ?? ''}`}
      onKeyDown={onKeyDown}
    >
      <h2 id={titleId} className="dialog-title">
        {title}
      </h2>
      {children}
    </div>
  );
  return overlay ? (
    <div className="dialog-backdrop">{dialog}</div>
  ) : (
    <div className="dialog-window">{dialog}</div>
  );
}
