// The window's global shortcuts (app/shortcuts.ts): new chat, focus the message box, stop the turn, the help sheet.
// Allow once / Deny belong to the approval dialog, which listens while it is open.
import { useEffect } from 'react';
import { useAppStore } from '../store/app-store';
import { matches } from './shortcuts';

/** The id of the message box, which "focus the composer" moves to. */
export const COMPOSER_ID = 'composer-input';

// "?" is text inside a field; the other shortcuts carry modifiers and work everywhere.
function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

/** Listens for the global shortcuts while the chat window is mounted. */
export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const store = useAppStore.getState();
      // A modal dialog owns the keyboard (its own Escape, Allow once and Deny).
      if (store.dialogs.length > 0 && !store.helpOpen) return;
      if (matches(event, 'newChat')) {
        event.preventDefault();
        store.setView('chat');
        void store.createChat();
      } else if (matches(event, 'focusComposer')) {
        event.preventDefault();
        store.setHelpOpen(false);
        store.setView('chat');
        // The chat screen may only now be rendering its composer.
        requestAnimationFrame(() => document.getElementById(COMPOSER_ID)?.focus());
      } else if (matches(event, 'stopTurn')) {
        event.preventDefault();
        if (store.chat.running) void store.stopTurn();
      } else if (matches(event, 'help') && !typing(event.target)) {
        event.preventDefault();
        store.setHelpOpen(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
