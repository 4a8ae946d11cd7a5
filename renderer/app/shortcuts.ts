// The keyboard shortcuts, defined once: the global handler, the buttons' aria-keyshortcuts and the help sheet all read
// this table. Keys are matched by KeyboardEvent.code so Alt on a Mac (which types "å") and other layouts still match.

/** Every shortcut the app has. */
export type ShortcutId = 'newChat' | 'focusComposer' | 'stopTurn' | 'allowOnce' | 'deny' | 'help';

/** One shortcut: the key's code and the modifiers it needs ("mod" is ⌘ on a Mac, Ctrl elsewhere). */
export interface Shortcut {
  code: string;
  /** The key as printed. */
  key: string;
  mod?: boolean;
  shift?: boolean;
  alt?: boolean;
}

// Chosen to miss the browser's own: Ctrl+N, Ctrl+T and Alt+D are the browser's in browser mode, Shift+Esc is
// Chrome's task manager on Windows and Linux.
/** The table. */
export const SHORTCUTS: Record<ShortcutId, Shortcut> = {
  newChat: { code: 'KeyO', key: 'O', mod: true, shift: true },
  focusComposer: { code: 'KeyM', key: 'M', alt: true, shift: true },
  stopTurn: { code: 'KeyS', key: 'S', mod: true, shift: true },
  allowOnce: { code: 'KeyA', key: 'A', alt: true, shift: true },
  deny: { code: 'KeyD', key: 'D', alt: true, shift: true },
  help: { code: 'Slash', key: '?', shift: true },
};

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Whether the event is that shortcut. */
export function matches(event: KeyboardEvent, id: ShortcutId): boolean {
  const s = SHORTCUTS[id];
  const mod = isMac() ? event.metaKey : event.ctrlKey;
  return (
    event.code === s.code &&
    mod === Boolean(s.mod) &&
    event.shiftKey === Boolean(s.shift) &&
    event.altKey === Boolean(s.alt) &&
    (isMac() ? !event.ctrlKey : !event.metaKey)
  );
}

/** The shortcut as a person reads it: "Ctrl+Shift+O", "⌘⇧O" style on a Mac. */
export function shortcutText(id: ShortcutId): string {
  const s = SHORTCUTS[id];
  const mac = isMac();
  const parts = [
    ...(s.mod ? [mac ? '⌘' : 'Ctrl'] : []),
    ...(s.alt ? [mac ? '⌥' : 'Alt'] : []),
    ...(s.shift && s.key !== '?' ? [mac ? '⇧' : 'Shift'] : []),
    s.key,
  ];
  return parts.join(mac ? '' : '+');
}

/** The aria-keyshortcuts value (WAI-ARIA names: Control, Meta, Alt, Shift). */
export function ariaShortcut(id: ShortcutId): string {
  const s = SHORTCUTS[id];
  const parts = [
    ...(s.mod ? [isMac() ? 'Meta' : 'Control'] : []),
    ...(s.alt ? ['Alt'] : []),
    ...(s.shift && s.key !== '?' ? ['Shift'] : []),
    s.key === 'Esc' ? 'Escape' : s.key,
  ];
  return parts.join('+');
}
