// Where the packaged pieces are, relative to the bundled main (dist/electron/main.mjs).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folders and files the shell loads. */
export interface AppFiles {
  /** The vite build of renderer/ (index.html, dialog.html, assets/). */
  rendererDir: string;
  /** The chat window's preload (bundled, CommonJS: sandboxed preloads cannot be modules). */
  preload: string;
  /** The dialog windows' preload. */
  dialogPreload: string;
}

/** The files next to the bundle `mainFile` (defaults to this module once bundled). */
export function appFiles(mainFile: string = fileURLToPath(import.meta.url)): AppFiles {
  const here = path.dirname(mainFile);
  return {
    rendererDir: path.resolve(here, '..', 'renderer'),
    preload: path.join(here, 'preload.cjs'),
    dialogPreload: path.join(here, 'dialog-preload.cjs'),
  };
}
