// Test fixture run on a pty: the real core with the masked terminal prompt; the "model" calls store_secret, then
// a tool that reads the key and echoes it. Prints the two outcomes as JSON on the last line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineTool } from '../../../tools/sdk/types';
import { createCore } from '../../app';
import { policyGate } from '../../core/gate-port';
import { HealBudget } from '../../core/heal-budget';
import { TerminalSecretPrompt } from '../terminal-prompt';

const home = process.env.AGENVOY_HOME ?? fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-pty-'));
const echoKey = defineTool({
  name: 'echo_key',
  description:
    'Echo the stored PTY_KEY back, as a careless tool might.\nUse when testing that secret values are redacted.',
  parameters: { type: 'object', properties: {}, additionalProperties: true },
  flags: { alwaysAllow: true },
  handler: async (_args, ctx) => `the key is ${await ctx.getSecret('PTY_KEY')}`,
});
const core = await createCore({
  home,
  workspace: home,
  gate: policyGate('deny'),
  hostTools: [echoKey],
  secretPrompt: new TerminalSecretPrompt(process.stdin, (text) => process.stderr.write(text)),
});
const scope = { chatId: 'pty', workspace: home, heal: new HealBudget() };
const [stored] = await core.executor.run(
  [
    {
      id: 'c1',
      name: 'store_secret',
      args: { key: 'PTY_KEY', question: 'Paste the PTY test key.', for_tool: 'echo_key' },
    },
  ],
  scope,
);
const [echoed] = await core.executor.run([{ id: 'c2', name: 'echo_key', args: {} }], scope);
await core.close();
process.stdout.write(`\nRESULT ${JSON.stringify({ stored: stored?.outcome, echoed: echoed?.outcome })}\n`);
