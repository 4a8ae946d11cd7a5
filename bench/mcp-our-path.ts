// Our MCP call path for the mcp bench (bench/mcp-bench.ts), which bundles this file as the app's builds do: the real
// composition root (createCore) over a home with mcp.json and the settings.json every configured app has, so each
// call pays what it pays in the app (settings read, events built and redacted for a listener, the MCP handler).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../main/app';
import { createConfirmGate } from '../main/gate/create-gate';

/**
 * Our dispatcher and MCP client on `server`, and the same session's SDK client called directly. `keyed`: the redactor
 * knows one secret, as in an app once its provider's key was read (the first turn), so every call's events and outcome
 * are scanned for it; without one, redaction is free.
 */
export async function ourPath(server: Record<string, unknown>, keyed = false) {
  // $AGENVOY_HOME and the workspace side by side, as in the app: the gate treats what lies in the first as sensitive.
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-bench-mcp-'));
  const home = path.join(base, 'agenvoy');
  const workspace = path.join(base, 'ws');
  fs.mkdirSync(workspace, { recursive: true });
  fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
  // trust: true makes echo (readOnlyHint) alwaysAllow, so no approval is measured.
  fs.writeFileSync(
    path.join(home, 'mcp.json'),
    JSON.stringify({ servers: { ev: { ...server, trust: true } } }),
  );
  fs.writeFileSync(
    path.join(home, 'desktop', 'settings.json'),
    JSON.stringify({
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4.1',
      apiKeyName: 'OPENAI_API_KEY',
      limits: { toolArgumentsBytes: 1048576 },
    }),
  );
  const core = await createCore({
    home,
    workspace,
    // The app's own gate: it looks at a trusted tool's arguments for sensitive targets on every call.
    gate: createConfirmGate({ home, policy: 'deny' }),
    sandbox: null,
    mcp: 'wait',
  });
  if (keyed) core.redactor.add('OPENAI_API_KEY', 'sk-bench-0123456789abcdefghijklmnopqrstuvwxyzABCD');
  const session = core.mcp.client('ev');
  if (!session) throw new Error(`server not ready: ${JSON.stringify(core.mcp.states())}`);
  // Every host listens to call events (the chat's store and the UI): measured with a listener, so the events are built
  // and redacted as in the app.
  let heard = 0;
  core.dispatcher.on(() => void heard++);
  let calls = 0;
  const scope = { chatId: 'bench', workspace };
  return {
    call: async (i: number) => {
      const outcome = await core.dispatcher.dispatch(
        { id: `call_${++calls}`, name: 'mcp__ev__echo', args: { message: `m${i}` } },
        scope,
      );
      if (outcome.outcome !== 'ok') throw new Error(`echo failed: ${JSON.stringify(outcome)}`);
      if (heard === 0) throw new Error('no call event was heard');
    },
    // The same session's SDK client called directly: what our handler and the dispatcher add, and nothing else.
    sameSession: (i: number) => session.callTool({ name: 'echo', arguments: { message: `m${i}` } }),
    close: async () => {
      await core.close();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}
