// The chat window's entry: connect to main, load the app's state, render.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n/i18n';
import { applyTheme, themeChoice } from './app/theme';
import { watchAttention } from './app/attention';
import { App } from './app/app';
import { exposeStoreForTests, pageSurfaces } from './boot/surfaces';
import { useAppStore } from './store/app-store';
import { setBridge } from './boot/bridge';
import { connectStore, loadApp } from './store/connect-store';
import './styles/base.css';
import './styles/layout.css';
import './styles/messages.css';
import './styles/cards.css';
import './styles/side.css';
import './styles/panels.css';
import './styles/dialogs.css';
import './styles/attachments.css';

async function start(): Promise<void> {
  applyTheme(themeChoice());
  const surfaces = await pageSurfaces();
  setBridge(surfaces);
  connectStore();
  exposeStoreForTests(useAppStore.getState);
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  await loadApp();
  // The chat page shows its dialogs in-page only in browser mode; Electron's main notifies for its dialog windows.
  if (surfaces.agenvoyDialog) watchAttention();
}

void start();
