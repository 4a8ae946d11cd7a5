// Vite build of the renderer: the chat window (index.html) and the modal dialog page (dialog.html) into dist/renderer.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./renderer', import.meta.url));

/** The renderer build; relative asset URLs so the same files load from file:// (Electron) and the web host. */
export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // A strict CSP allows no inline code: keep the preload polyfill out and every asset a file.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    rolldownOptions: {
      input: {
        index: `${root}/index.html`,
        dialog: `${root}/dialog.html`,
      },
    },
  },
});
