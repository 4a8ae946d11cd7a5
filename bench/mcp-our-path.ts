// Our MCP call path for the mcp bench (bench/mcp-bench.ts), which bundles this file as the app's builds do: a real
// dispatcher stack and McpManager over server-everything, with a call-event listener as every host has.
import { mcpHarness } from '../main/adapters/mcp/mcp-testing';

/** Our dispatcher and MCP client on `server`, and the same session's SDK client called directly. */
export async function ourPath(server: Record<string, unknown>) {
  // trust: true makes echo (readOnlyHint) alwaysAllow, so no approval stub is measured.
  const h = mcpHarness({ servers: { ev: { ...server, trust: true } } });
  await h.manager.start();
  const session = h.manager.client('ev');
  if (!session) throw new Error(`server not ready: ${JSON.stringify(h.state('ev'))}`);
  // Every host listens to call events (the chat's store and the UI): measured with a listener, so the events are built
  // and redacted as in the app.
  let heard = 0;
  h.core.dispatcher.on(() => void heard++);
  return {
    call: async (i: number) => {
      const outcome = await h.dispatch('mcp__ev__echo', { message: `m${i}` });
      if (outcome.outcome !== 'ok') throw new Error(`echo failed: ${JSON.stringify(outcome)}`);
      if (heard === 0) throw new Error('no call event was heard');
    },
    // The same session's SDK client called directly: what our handler and the dispatcher add, and nothing else.
    sameSession: (i: number) => session.callTool({ name: 'echo', arguments: { message: `m${i}` } }),
    close: () => h.close(),
  };
}
