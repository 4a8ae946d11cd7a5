// Test helper: a real history file in a fresh temp folder, removed afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChatStore } from '../chat-store';
import { chatStorePath, openChatStore } from '../chat-store';
import type { OpenOptions } from '../connection';

/** A temp folder laid out like $AGENVOY_HOME/desktop, and the history path inside it. */
export interface TempDesktop {
  dir: string;
  file: string;
  /** Removes the folder. */
  remove(): void;
}

/** Makes a fresh temp desktop folder. */
export function tempDesktop(): TempDesktop {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-store-'));
  const desktop = path.join(dir, 'desktop');
  return {
    dir,
    file: chatStorePath(desktop),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Opens a store in a fresh temp folder; `dispose` closes it and removes the folder. */
export function tempStore(options: OpenOptions = {}): TempDesktop & { store: ChatStore; dispose(): void } {
  const desktop = tempDesktop();
  const store = openChatStore(desktop.file, options);
  return {
    ...desktop,
    store,
    dispose: () => {
      store.close();
      desktop.remove();
    },
  };
}
