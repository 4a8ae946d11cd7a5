// The layers of docs/architecture.md are enforced by the linter, not only written down: probe files that import
// across a forbidden boundary are written into the real tree, linted with the project's own ESLint config, and must
// fail with the zone's message; a probe that keeps to its layer passes.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const written: string[] = [];

afterEach(() => {
  for (const file of written.splice(0)) fs.rmSync(file, { force: true });
});

// Lints one probe file at `rel` (relative to the repository) holding `code`; returns the messages of the layer rules.
async function probe(rel: string, code: string): Promise<string[]> {
  const file = path.join(root, rel);
  written.push(file);
  fs.writeFileSync(file, code);
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintFiles([file]);
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.startsWith('import-x/') || m.ruleId === 'no-restricted-imports')
    .map((m) => `${m.ruleId}: ${m.message}`);
}

const name = () => `zz-layer-probe-${process.pid}-${written.length}`;

describe('layers enforced by the linter', () => {
  it('main/core importing main/agent fails', async () => {
    const messages = await probe(
      `main/core/${name()}.ts`,
      "import type { ChatCore } from '../agent/chat-core';\nexport type X = ChatCore;\n",
    );
    expect(messages.join('\n')).toMatch(/no-restricted-paths: .*main\/core imports nothing else of main/);
  });

  it('the renderer importing main/ or a node: module fails', async () => {
    const messages = await probe(
      `renderer/${name()}.ts`,
      "import type { Core } from '../main/app';\nimport fs from 'node:fs';\nexport type X = Core;\nexport const f = fs;\n",
    );
    expect(messages.join('\n')).toMatch(/The renderer imports only the contract/);
    expect(messages.join('\n')).toMatch(/no node: modules/);
  });

  it('a lower layer importing the agent, a host or a concrete tool fails', async () => {
    const store = await probe(
      `main/store/${name()}.ts`,
      "import type { ChatCore } from '../agent/chat-core';\nexport type X = ChatCore;\n",
    );
    expect(store.join('\n')).toMatch(/main\/store imports only main\/core, main\/process and the tools SDK/);
    const secrets = await probe(
      `main/secrets/${name()}.ts`,
      "import { storeSecretTool } from '../../tools/builtin/store-secret';\nexport const t = storeSecretTool;\n",
    );
    expect(secrets.join('\n')).toMatch(/main\/secrets may use the tools SDK, never a concrete tool/);
    const gate = await probe(
      `main/gate/${name()}.ts`,
      "import { webCommand } from '../launcher/web-command';\nexport const w = webCommand;\n",
    );
    expect(gate.join('\n')).toMatch(/main\/gate imports only main\/core/);
    const settings = await probe(
      `main/settings/${name()}.ts`,
      "import { streamLimits } from '../agent/turn-limits';\nexport const s = streamLimits;\n",
    );
    expect(settings.join('\n')).toMatch(
      /main\/settings imports only main\/core, main\/process and the tools SDK/,
    );
  });

  it('a host importing another host fails, and electron stays in main/electron', async () => {
    const electron = await probe(
      `main/electron/${name()}.ts`,
      "import { startWebServer } from '../web/web-server';\nexport const s = startWebServer;\n",
    );
    expect(electron.join('\n')).toMatch(
      /No host imports another host: main\/electron must not import main\/web/,
    );
    const core = await probe(
      `main/core/${name()}.ts`,
      // Assembled, so this test file itself does not read as importing the desktop runtime.
      `import { app } from '${['elec', 'tron'].join('')}';\nexport const a = app;\n`,
    );
    expect(core.join('\n')).toMatch(/Only main\/electron\/ and preload\/ may import electron/);
  });

  it('an import that does not resolve fails (restricted paths cannot skip it), and so does a cycle', async () => {
    const missing = await probe(`main/core/${name()}.ts`, "export { x } from '../agent/no-such-file';\n");
    expect(missing.join('\n')).toMatch(/import-x\/no-unresolved/);
    const a = name();
    const b = `${a}-b`;
    written.push(path.join(root, `main/core/${b}.ts`));
    fs.writeFileSync(
      path.join(root, `main/core/${b}.ts`),
      `import { a } from './${a}';\nexport const b = a;\n`,
    );
    const cycle = await probe(
      `main/core/${a}.ts`,
      `import { b } from './${b}';\nexport const a = 1;\nexport const c = b;\n`,
    );
    expect(cycle.join('\n')).toMatch(/import-x\/no-cycle/);
  });

  it('the tools SDK importing a concrete tool, or tools/ importing main/, fails', async () => {
    const sdk = await probe(
      `tools/sdk/${name()}.ts`,
      "import { runCommandTool } from '../builtin/run-command';\nexport const t = runCommandTool;\n",
    );
    expect(sdk.join('\n')).toMatch(/The tools SDK never imports a concrete tool/);
    const builtin = await probe(
      `tools/builtin/${name()}.ts`,
      "import type { Redactor } from '../../main/core/redactor';\nexport type R = Redactor;\n",
    );
    expect(builtin.join('\n')).toMatch(/tools\/ gets capabilities through the tool context/);
  });

  it('a probe that keeps to its layer passes', async () => {
    const messages = await probe(
      `main/gate/${name()}.ts`,
      "import type { ToolSpec } from '../../tools/sdk/types';\nimport type { Redactor } from '../core/redactor';\n" +
        'export type X = [ToolSpec, Redactor];\n',
    );
    expect(messages).toEqual([]);
  });
});
