// A real chat stack for tests: core over a temp AGENVOY_HOME, a SQLite store, and a local OpenAI-compatible server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Core } from '../../app';
import { createCore } from '../../app';
import type { ApprovalGate } from '../../core/gate-port';
import { policyGate } from '../../core/gate-port';
import type { CredentialHealer } from '../../core/heal-budget';
import { openChatStore } from '../../store';
import type { ChatStore } from '../../store';
import { ChatService } from '../chat-service';
import type { ScriptedServer } from '../providers/testing/scripted-server';
import { startOpenAiTestServer } from '../providers/testing/openai-test-server';
import { startAnthropicTestServer } from '../providers/testing/anthropic-test-server';
import type { ProviderSettings } from '../../settings/settings';

/** Everything a chat test needs, and how to tear it down. */
export interface ChatFixture {
  home: string;
  workspace: string;
  core: Core;
  store: ChatStore;
  server: ScriptedServer;
  service: ChatService;
  settings: ProviderSettings;
  close(): Promise<void>;
}

/** Writes a script tool folder under the fixture's AGENVOY_HOME. */
export function writeScriptTool(
  home: string,
  folder: string,
  manifest: Record<string, unknown>,
  script: string,
): void {
  const dir = path.join(home, 'tools', 'script', folder);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'tool.json'), JSON.stringify(manifest));
  fs.writeFileSync(path.join(dir, 'script.js'), script);
}

/** Builds the fixture; `prepare` runs before the core starts (to drop script tools in). */
export async function chatFixture(
  options: {
    gate?: ApprovalGate;
    healer?: CredentialHealer | null;
    apiKeyName?: string | null;
    maxRounds?: number;
    /** Looks secrets up; leave out to use the real secret store of the temp AGENVOY_HOME. */
    getSecret?: (key: string) => Promise<string | undefined>;
    prepare?: (home: string) => void;
    /** The model's wire format (default: OpenAI-compatible). */
    wire?: 'openai' | 'anthropic';
    /** Starts the model server instead of the wire's plain scripted one (e.g. one that bills cache use). */
    startServer?: () => Promise<ScriptedServer>;
  } = {},
): Promise<ChatFixture> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-chat-'));
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-ws-'));
  options.prepare?.(home);
  const core = await createCore({
    home,
    workspace,
    gate: options.gate ?? policyGate('allow'),
    getSecret: options.getSecret,
    healer: options.healer ?? null,
    mcp: 'off',
  });
  const getSecret = options.getSecret ?? ((key: string) => core.secrets.get(key));
  const store = openChatStore(path.join(home, 'desktop', 'agenvoy.db'));
  const anthropic = options.wire === 'anthropic';
  const server = options.startServer
    ? await options.startServer()
    : anthropic
      ? await startAnthropicTestServer()
      : await startOpenAiTestServer();
  const settings: ProviderSettings = {
    provider: anthropic ? 'anthropic' : 'openai',
    baseUrl: server.baseUrl,
    model: 'test-model',
    apiKeyName: options.apiKeyName ?? null,
  };
  const service = new ChatService({
    core,
    store,
    settings: () => settings,
    healer: options.healer ?? null,
    offered: () => true,
    background: true,
    getSecret,
    providerOptions: { retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50 } },
    maxRounds: options.maxRounds,
  });
  return {
    home,
    workspace,
    core,
    store,
    server,
    service,
    settings,
    async close() {
      service.close();
      await core.close();
      store.close();
      await server.close();
    },
  };
}
