// The place most `agenvoy chat` tests run in: a home whose settings.json names a scripted OpenAI-compatible server
// (no key), and a workspace, made before each test of the file that asks for it and removed after it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startOpenAiTestServer } from '../../agent/providers/testing/openai-test-server';
import type { ScriptedServer } from '../../agent/providers/testing/scripted-server';

/** One test's place: $AGENVOY_HOME, the workspace, and the model server its settings.json names. */
export interface ScriptedChatPlace {
  home: string;
  cwd: string;
  server: ScriptedServer;
}

/** Makes a place before each test (folders named `agenvoy-<label>-…`), hands it to `use`, and removes it after. */
export function useScriptedChatPlace(label: string, use: (place: ScriptedChatPlace) => void): void {
  let place: ScriptedChatPlace | null = null;
  beforeEach(async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), `agenvoy-${label}-home-`));
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), `agenvoy-${label}-ws-`));
    const server = await startOpenAiTestServer();
    fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
    fs.writeFileSync(
      path.join(home, 'desktop', 'settings.json'),
      JSON.stringify({ provider: 'openai', baseUrl: server.baseUrl, model: 'scripted', apiKeyName: null }),
    );
    place = { home, cwd, server };
    use(place);
  });
  afterEach(async () => {
    if (!place) return;
    await place.server.close();
    fs.rmSync(place.home, { recursive: true, force: true });
    fs.rmSync(place.cwd, { recursive: true, force: true });
    place = null;
  });
}
