// A secret file of the workspace (`.env`, a deploy key) reached by html_template through a symlink inside the
// workspace under an innocent name, from a template the gate does not resolve: the gate resolves an argument's
// words only for one-line values of at most 64 words, and a template has lines. Through the real dispatcher and
// ConfirmGate, with html_template allowed by a rule (as a chat grant would): the page was rendered with the
// secret, without the always-ask that naming `.env` gets; the sandbox hides the same file from commands. The
// reader, which runs before the gate, now refuses what really is a secret file, or in this app's own folder when
// the workspace holds it (the home folder with AGENVOY_HOME=~/.agenvoy) (docs/security.md, "html_template").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { htmlTemplateTool } from '../../tools/builtin/html-template';
import { protectAppFolder } from '../../tools/sdk/protected-write';
import type { CallOutcome } from '../core/outcome';
import { gateFixture } from './testing/gate-fixture';

const canary = `API_KEY=canary-${process.pid}-${Date.now()}`;

let base: string;
let workspace: string;
let fx: ReturnType<typeof gateFixture>;
let id = 0;

beforeEach(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-tpl-secret-')));
  workspace = path.join(base, 'ws');
  fs.mkdirSync(path.join(workspace, 'deploy'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.env'), canary);
  fs.writeFileSync(path.join(workspace, 'deploy', 'id_ed25519'), canary);
  // The hostile repository's innocent names for them.
  fs.symlinkSync('.env', path.join(workspace, 'footer.liquid'));
  fs.symlinkSync('deploy/id_ed25519', path.join(workspace, 'header.liquid'));
  fs.writeFileSync(path.join(workspace, 'report.liquid'), `<h1>Report</h1>\n{% include 'footer.liquid' %}\n`);
  fx = gateFixture({ homes: [path.join(base, 'home')], extraTools: [htmlTemplateTool] });
  await fx.gate.rules.add({ tool: 'html_template', effect: 'allow' });
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
  fs.rmSync(fx.home, { recursive: true, force: true });
});

function call(args: Record<string, unknown>): Promise<CallOutcome> {
  return fx.dispatcher.dispatch({ id: `t${++id}`, name: 'html_template', args }, { chatId: 'c', workspace });
}

describe('html_template and the secret files of the workspace', () => {
  it('never renders them through a symlink with an innocent name', async () => {
    const attempts: Array<Record<string, unknown>> = [
      { output: 'a.html', template_file: 'report.liquid' },
      { output: 'b.html', template: `<p>Hi</p>\n{% include 'footer.liquid' %}` },
      { output: 'c.html', template: `<p>Hi</p>\n{% render "header.liquid" %}` },
      { output: 'd.html', template: `${'word '.repeat(70)}{% include 'footer.liquid' %}` },
    ];
    for (const args of attempts) {
      const outcome = await call(args);
      const what = JSON.stringify(args).slice(0, 100);
      const text = outcome.outcome === 'ok' ? outcome.text : outcome.message;
      expect(outcome.outcome, what).not.toBe('ok');
      expect(text, what).not.toContain('canary');
      expect(text, what).toMatch(/a \.env file|a private SSH key/);
    }
    for (const page of ['a.html', 'b.html', 'c.html', 'd.html'])
      expect(fs.existsSync(path.join(workspace, page)), page).toBe(false);
  });
});

describe("html_template and this app's own folder inside the workspace", () => {
  it('never renders its files (mcp.json with a server token) through a symlink', async () => {
    // The home folder as the workspace, with AGENVOY_HOME=~/.agenvoy: marked as the composition root does.
    const app = path.join(workspace, '.agenvoy');
    const inside = gateFixture({ home: app, extraTools: [htmlTemplateTool] });
    const unprotect = protectAppFolder(app);
    try {
      await inside.gate.rules.add({ tool: 'html_template', effect: 'allow' });
      fs.writeFileSync(
        path.join(app, 'mcp.json'),
        JSON.stringify({ servers: { gh: { env: { TOKEN: canary } } } }),
      );
      fs.symlinkSync('.agenvoy/mcp.json', path.join(workspace, 'nav.liquid'));
      const outcome = await inside.dispatcher.dispatch(
        {
          id: 'm1',
          name: 'html_template',
          args: { output: 'm.html', template: `<p>Hi</p>\n{% include 'nav.liquid' %}` },
        },
        { chatId: 'c', workspace },
      );
      const text = outcome.outcome === 'ok' ? outcome.text : outcome.message;
      expect(outcome.outcome).not.toBe('ok');
      expect(text).toContain("this app's own folder");
      expect(fs.existsSync(path.join(workspace, 'm.html'))).toBe(false);
    } finally {
      unprotect();
    }
  });
});
