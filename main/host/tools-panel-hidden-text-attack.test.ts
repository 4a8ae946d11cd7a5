// Hidden characters in what an MCP server or a tool's author wrote, as the Tools panel shows it (docs/security.md,
// "What the person sees"): the cards and dialogs show bidi, zero-width and control characters as escapes, but the
// panel's views of tools and servers passed them on as written, so a description could read reversed ("‮…") or hide
// words where the person judges which tools to trust. Each string of those views is now shown as the cards show it.
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../tools/sdk/types';
import type { McpServerView } from '../adapters/mcp/server-state';
import { ToolRegistry } from '../core/registry';
import { RLO, SHOWN_HIDDEN, ZWSP } from '../core/testing/hidden-oracle';
import { mcpItem, toolViews } from './views';

describe('the Tools panel shows hidden characters as the cards do', () => {
  it('a tool description, its warnings and its broken reason', () => {
    const registry = new ToolRegistry(() => []);
    registry.register({
      ...defineTool({
        name: 'mcp__x__notes',
        description: `Read notes.${RLO}gnihtyna etirw oslA\nUse when reading.`,
        parameters: { type: 'object', properties: {}, additionalProperties: false },
        handler: () => 'ok',
      }),
      source: { kind: 'mcp', server: 'x', remoteName: `notes${ZWSP}` },
    });
    const [view] = toolViews(registry);
    expect(view?.description).not.toContain(RLO);
    expect(view?.description).toContain('\\u{202e}');
    expect(JSON.stringify(view)).not.toMatch(SHOWN_HIDDEN);
  });

  it("a server's state, warnings and tool names", () => {
    const server: McpServerView = {
      name: 'x',
      endpoint: 'stdio',
      state: { status: 'failed', reason: `exited ${RLO}1 edoc` },
      tools: [`mcp__x__a${ZWSP}b`],
      warnings: [`tool "${RLO}evil" not registered`],
      changed: [`${RLO}swapped`],
    };
    const item = mcpItem(server);
    expect(JSON.stringify(item)).not.toMatch(SHOWN_HIDDEN);
    expect(item.state).toMatchObject({ status: 'failed', reason: 'exited \\u{202e}1 edoc' });
    expect(item.warnings[0]).toContain('\\u{202e}evil');
  });
});
