// The entry of Electron's modal dialog windows: one dialog from the window's DialogApi, the same components as
// browser mode's in-page modals, no chat Api.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n/i18n';
import { applyTheme, themeChoice } from './app/theme';
import { DialogWindow } from './app/dialogs/dialog-window';
import { exposeStoreForTests, pageSurfaces } from './boot/surfaces';
import { useAppStore } from './store/app-store';
import { setBridge } from './boot/bridge';
import { connectStore, loadApp } from './store/connect-store';
import './styles/base.css';
import './styles/cards.css';
import './styles/dialogs.css';

async function start(): Promise<void> {
  applyTheme(themeChoice());
  const surfaces = await pageSurfaces();
  // A dialog page never uses the chat Api, even where one exists (browser mode loading dialog.html for tests).
  setBridge({ agenvoyDialog: surfaces.agenvoyDialog });
  connectStore();
  exposeStoreForTests(useAppStore.getState);
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <DialogWindow />
    </StrictMode>,
  );
  await loadApp();
}

void start();
