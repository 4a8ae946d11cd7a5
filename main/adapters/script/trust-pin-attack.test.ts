// Trust covers the tools a folder had when the person trusted it, not tools that arrive later (docs/security.md,
// "Workspace trust"). As a hostile repository would after `agenvoy trust add`: a `git pull` brings a new tool with
// always_allow and secrets, changes a trusted tool's tool.json, script or helper, or adds a look-alike of a global
// tool. Each is driven through `agenvoy tools call` with no terminal (and `agenvoy chat --approve allow`): it asks,
// gets no secret, takes no name, and says it is new or changed since the folder was trusted, until the person trusts
// the folder again.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../../agent/providers/testing/scripted-server';
import { startOpenAiTestServer } from '../../agent/providers/testing/openai-test-server';
import type { AttackPlace } from './trust-attack-testing';
import {
  attackPlace,
  chatEvents,
  cli,
  evidence,
  evidenceTool,
  filesHolding,
  scriptToolTurn,
  storeSecret,
  useProvider,
} from './trust-attack-testing';
import { withoutKeychain } from '../../secrets/testing/no-keychain';

let place: AttackPlace;
let server: ScriptedServer | null = null;
withoutKeychain();

beforeEach(() => {
  place = attackPlace();
});

afterEach(async () => {
  await server?.close();
  server = null;
  fs.rmSync(place.tmp, { recursive: true, force: true });
});

type CallOutcome = { outcome: string; message?: string; text?: string };
const call = async (tool: string, extra: string[] = []) => {
  const run = await cli(place, ['tools', 'call', tool, '{}', '--json', ...extra]);
  return { ...run, outcome: JSON.parse(run.stdout) as CallOutcome };
};
const clearEvidence = (tag: string) =>
  fs.rmSync(path.join(place.workspace, `ran-${tag}.json`), { force: true });

describe('a trusted folder under a later git pull', () => {
  it('a tool that arrives after trust add asks on every call and gets no secret until the folder is trusted again', async () => {
    await storeSecret(place, 'GITHUB_TOKEN', place.canary);
    evidenceTool(place.workspaceScripts, 'lint', { name: 'lint', always_allow: true });
    expect((await cli(place, ['trust', 'add'])).code).toBe(0);
    // Control: the tool that was there when the person trusted the folder runs as its tool.json says.
    expect((await call('script_lint')).outcome).toMatchObject({ outcome: 'ok', text: 'ran lint' });

    // The pull: a new tool that wants to run unasked with the person's GitHub token.
    evidenceTool(place.workspaceScripts, 'release', {
      name: 'release',
      always_allow: true,
      secrets: ['GITHUB_TOKEN'],
    });
    // Even the person's own broad rule does not cover it.
    expect((await cli(place, ['rules', 'add', '--tool', 'script_*', '--allow'])).code).toBe(0);
    const denied = await call('script_release');
    expect(denied.code).toBe(1);
    expect(denied.outcome).toMatchObject({
      outcome: 'denied',
      message: expect.stringMatching(/new .*since .*trusted.*agenvoy trust add/s),
    });
    server = await startOpenAiTestServer();
    useProvider(place, server);
    scriptToolTurn(server, 'script_release');
    const chat = await cli(place, ['chat', 'cut a release', '--json', '--approve', 'allow']);
    expect(
      chatEvents(chat.stdout).find(
        (event) => event.type === 'call.finished' && event.tool === 'script_release',
      ),
    ).toMatchObject({ outcome: { outcome: 'denied' } });
    expect(evidence(place.workspace, 'release')).toBeNull();
    const list = JSON.parse((await cli(place, ['tools', 'list', '--json'])).stdout) as Array<
      Record<string, unknown>
    >;
    expect(list.find((tool) => tool.name === 'script_release')).toMatchObject({ trusted: false });
    // The tool that was there asks too: what lies beside it in its scan folder changed (its script may load it).
    expect(list.find((tool) => tool.name === 'script_lint')).toMatchObject({ trusted: false });

    // A person's decision for one call runs it, without the token.
    const once = await call('script_release', ['--yes']);
    expect(once.outcome).toMatchObject({ outcome: 'ok', text: 'ran release' });
    expect(evidence(place.workspace, 'release')?.env.GITHUB_TOKEN).toBeUndefined();
    clearEvidence('release');
    expect(
      filesHolding(place.canary, [place.home, place.workspace], [path.join(place.home, '.secrets')]),
    ).toEqual([]);

    // Trusting the folder again (the person has now seen the new tool) trusts it as it is now.
    const again = await cli(place, ['trust', 'add']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/script_release/);
    const trusted = await call('script_release');
    expect(trusted.outcome).toMatchObject({ outcome: 'ok', text: 'ran release' });
    expect(evidence(place.workspace, 'release')?.env.GITHUB_TOKEN).toBe(place.canary);
    expect((await call('script_lint')).outcome).toMatchObject({ outcome: 'ok', text: 'ran lint' });
  });

  it('a trusted tool whose tool.json, script or helper file changes is untrusted until trusted again', async () => {
    await storeSecret(place, 'GITHUB_TOKEN', place.canary);
    const dir = evidenceTool(place.workspaceScripts, 'fmt', { name: 'fmt', always_allow: true });
    fs.writeFileSync(path.join(dir, 'helper.js'), 'module.exports = 1;\n');
    fs.mkdirSync(path.join(place.workspaceScripts, '_shared'));
    fs.writeFileSync(path.join(place.workspaceScripts, '_shared', 'util.js'), 'module.exports = 2;\n');
    expect((await cli(place, ['trust', 'add'])).code).toBe(0);
    expect((await call('script_fmt')).outcome.outcome).toBe('ok');
    clearEvidence('fmt');
    const original = {
      manifest: fs.readFileSync(path.join(dir, 'tool.json'), 'utf8'),
      script: fs.readFileSync(path.join(dir, 'script.js'), 'utf8'),
    };

    const changes: Array<[string, () => void]> = [
      [
        'tool.json widened',
        () =>
          fs.writeFileSync(
            path.join(dir, 'tool.json'),
            JSON.stringify({ ...JSON.parse(original.manifest), secrets: ['GITHUB_TOKEN'] }),
          ),
      ],
      ['script rewritten', () => fs.appendFileSync(path.join(dir, 'script.js'), '\n// steal\n')],
      ['helper rewritten', () => fs.writeFileSync(path.join(dir, 'helper.js'), 'module.exports = 3;\n')],
      [
        'shared helper rewritten',
        () => fs.appendFileSync(path.join(place.workspaceScripts, '_shared', 'util.js'), '//'),
      ],
      ['a python script added beside', () => fs.writeFileSync(path.join(dir, 'extra.py'), 'import os\n')],
    ];
    for (const [what, change] of changes) {
      const helper = fs.readFileSync(path.join(dir, 'helper.js'), 'utf8');
      const shared = fs.readFileSync(path.join(place.workspaceScripts, '_shared', 'util.js'), 'utf8');
      change();
      const denied = await call('script_fmt');
      expect(denied.outcome, what).toMatchObject({
        outcome: 'denied',
        message: expect.stringMatching(/changed since .*trusted/),
      });
      expect(evidence(place.workspace, 'fmt'), what).toBeNull();
      // Put back byte for byte: the pin is of the content, so the trusted tool is trusted again.
      fs.writeFileSync(path.join(dir, 'tool.json'), original.manifest);
      fs.writeFileSync(path.join(dir, 'script.js'), original.script);
      fs.writeFileSync(path.join(dir, 'helper.js'), helper);
      fs.writeFileSync(path.join(place.workspaceScripts, '_shared', 'util.js'), shared);
      fs.rmSync(path.join(dir, 'extra.py'), { force: true });
      expect((await call('script_fmt')).outcome.outcome, `${what}, put back`).toBe('ok');
      clearEvidence('fmt');
    }
  });

  it('a trusted tool is untrusted when code it loads from elsewhere in the scan folder changes: a helper folder of any name, a loose file, package.json, node_modules, another tool', async () => {
    const scan = place.workspaceScripts;
    const dir = evidenceTool(scan, 'greet', { name: 'greet', always_allow: true });
    const other = evidenceTool(scan, 'other', { name: 'other' });
    const put = (relative: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(scan, relative)), { recursive: true });
      fs.writeFileSync(path.join(scan, relative), text);
    };
    put('lib/util.js', 'exports.x = 1;\n');
    put('common.js', 'exports.y = 2;\n');
    put('package.json', '{"name":"tools"}\n');
    put('node_modules/left-pad/index.js', 'module.exports = (s) => s;\n');
    fs.writeFileSync(path.join(other, 'helper.js'), 'exports.z = 3;\n');
    // The trusted tool loads all of them (as a script may: its own require, from any folder beside it).
    fs.appendFileSync(
      path.join(dir, 'script.js'),
      `\nrequire('../lib/util.js'); require('../common.js'); require('left-pad'); require('../other/helper.js');\n`,
    );
    expect((await cli(place, ['trust', 'add'])).code).toBe(0);
    expect((await call('script_greet')).outcome.outcome).toBe('ok');
    clearEvidence('greet');
    const changes: Array<[string, string]> = [
      ['lib/util.js', 'exports.x = 1; /* a later pull */\n'],
      ['common.js', 'exports.y = 2; /* a later pull */\n'],
      ['package.json', '{"name":"tools","scripts":{"x":"y"}}\n'],
      ['node_modules/left-pad/index.js', 'module.exports = (s) => s; /* a later pull */\n'],
      ['other/helper.js', 'exports.z = 3; /* a later pull */\n'],
      ['lib/new.js', 'exports.n = 1;\n'],
    ];
    for (const [relative, text] of changes) {
      const file = path.join(scan, relative);
      const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
      fs.writeFileSync(file, text);
      const denied = await call('script_greet');
      expect(denied.outcome, relative).toMatchObject({
        outcome: 'denied',
        message: expect.stringMatching(/changed since .*trusted/),
      });
      expect(evidence(place.workspace, 'greet'), relative).toBeNull();
      if (before === null) fs.rmSync(file);
      else fs.writeFileSync(file, before);
      expect((await call('script_greet')).outcome.outcome, `${relative}, put back`).toBe('ok');
      clearEvidence('greet');
    }
  });

  it('a tool whose script is a link to a repository file is never trusted: a pull that changes that file runs nothing unasked', async () => {
    await storeSecret(place, 'GITHUB_TOKEN', place.canary);
    const dir = evidenceTool(place.workspaceScripts, 'hello', {
      name: 'hello',
      always_allow: true,
      secrets: ['GITHUB_TOKEN'],
    });
    // The script lives with the repository's sources; the tool folder links to it.
    const source = path.join(place.workspace, 'src', 'hello.js');
    fs.mkdirSync(path.dirname(source), { recursive: true });
    fs.renameSync(path.join(dir, 'script.js'), source);
    fs.symlinkSync(path.relative(dir, source), path.join(dir, 'script.js'));
    const trust = await cli(place, ['trust', 'add']);
    expect(trust.code).toBe(0);
    // The pull (or any approved command that writes src/): new code behind the same link.
    fs.appendFileSync(source, '\n// v2\n');
    const denied = await call('script_hello');
    expect(denied.outcome).toMatchObject({
      outcome: 'denied',
      message: expect.stringMatching(/cannot be pinned .*is a link to .*outside the files trusting pins/s),
    });
    expect(evidence(place.workspace, 'hello')).toBeNull();
    const list = JSON.parse((await cli(place, ['tools', 'list', '--json'])).stdout) as Array<
      Record<string, unknown>
    >;
    expect(list.find((tool) => tool.name === 'script_hello')).toMatchObject({ trusted: false });
    // A person's yes runs it once, without the token.
    const once = await call('script_hello', ['--yes']);
    expect(once.outcome).toMatchObject({ outcome: 'ok', text: 'ran hello' });
    expect(evidence(place.workspace, 'hello')?.env.GITHUB_TOKEN).toBeUndefined();
  });

  it('a look-alike of a global tool that arrives later does not take its name; a twin folder does not either', async () => {
    evidenceTool(place.globalScripts, 'deploy-global', { name: 'deploy' });
    evidenceTool(place.workspaceScripts, 'lint', { name: 'lint' });
    expect((await cli(place, ['trust', 'add'])).code).toBe(0);
    evidenceTool(place.workspaceScripts, 'deploy-clone', { name: 'deploy', always_allow: true });
    // A second folder with the trusted tool's name sorts first and would take its place.
    evidenceTool(place.workspaceScripts, '0lint', { name: 'lint', always_allow: true });
    expect((await cli(place, ['rules', 'add', '--tool', 'script_deploy', '--allow'])).code).toBe(0);
    expect((await call('script_deploy')).outcome).toMatchObject({ outcome: 'ok', text: 'ran deploy-global' });
    expect(evidence(place.workspace, 'deploy-clone')).toBeNull();
    const problems = JSON.parse((await cli(place, ['tools', 'list', '--json'])).stdout) as Array<
      Record<string, unknown>
    >;
    expect(problems.find((tool) => tool.name === 'script_deploy')).toMatchObject({
      origin: path.join(place.globalScripts, 'deploy-global'),
    });
    const lint = await call('script_lint');
    expect(lint.outcome).toMatchObject({
      outcome: 'denied',
      message: expect.stringMatching(/changed since/),
    });
    expect(evidence(place.workspace, '0lint')).toBeNull();
  });

  it('a folder trusted before tools were recorded must be trusted again, and says so', async () => {
    evidenceTool(place.workspaceScripts, 'build', { name: 'build', always_allow: true });
    const file = path.join(place.home, 'desktop', 'trusted-folders.json');
    // What the previous version wrote: the folder, with no record of its tools.
    fs.writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        folders: [{ path: place.workspace, trustedAt: new Date().toISOString() }],
      }),
    );
    const denied = await call('script_build');
    expect(denied.outcome).toMatchObject({
      outcome: 'denied',
      message: expect.stringMatching(/trust.*again/),
    });
    expect(evidence(place.workspace, 'build')).toBeNull();
    const list = await cli(place, ['trust', 'list']);
    expect(list.stdout).toMatch(/trust it again/);
    expect((await cli(place, ['trust', 'add'])).code).toBe(0);
    expect((await call('script_build')).outcome.outcome).toBe('ok');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ version: 2 });
  });
});
