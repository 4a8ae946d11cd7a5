// Sensitive targets reached without naming them as text, end to end through the real dispatcher, the ConfirmGate
// and a real run_command, under a rule that allows every command and with nobody to ask: shell expansions
// (`~/${x:-.ssh}/id_${x:-rsa}`), relative paths, and symlinks in the workspace or as the working folder. Each is
// denied, says what it touches, and reads nothing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AttackGround } from './testing/attack-workspace';
import { attackGround, outcomeText } from './testing/attack-workspace';
import { ScriptedPrompter } from './testing/scripted-prompter';

async function groundAllowingEverything(): Promise<AttackGround> {
  const ground = attackGround();
  await ground.fx.gate.rules.add({ tool: 'run_command', effect: 'allow' });
  await ground.fx.gate.rules.add({ tool: 'write_note', effect: 'allow' });
  return ground;
}

async function expectSensitive(
  ground: AttackGround,
  cases: Array<[Record<string, unknown>, string]>,
  tool?: string,
) {
  for (const [args, label] of cases) {
    const outcome = await ground.call(args, tool);
    const what = JSON.stringify(args);
    expect(outcome.outcome, what).toBe('denied');
    expect(outcomeText(outcome), what).toContain(`it touches ${label}`);
    expect(outcomeText(outcome), what).not.toContain('PRIVATE KEY');
  }
  expect(ground.fx.runs).toEqual([]);
}

describe('~/${x:-.ssh}/id_${x:-rsa} and other expansions', () => {
  it('expands the words as the shell will, wherever they are in the line', async () => {
    const ground = await groundAllowingEverything();
    await expectSensitive(
      ground,
      [
        'cat ~/${x:-.ssh}/id_${x:-rsa}',
        'cat ~/${x:-.ss}h/config',
        'cat "${HOME}/.ssh/config"',
        'cat ${HOME:+$HOME}/.ssh/config',
        'x=.ssh; cat ~/$x/config',
        'cat ~/$x/config; x=.ssh',
        'a=.s; b=${a}sh; cat ~/$b/config',
        'for d in .ss; do cat ~/${d}h/config; done',
        "cat ~/$'\\x2essh'/config",
        'cat $(printf %s ~/.ssh/config)',
        "sh -c 'cat ~/${x:-.ssh}/config'",
        "eval 'cat ~/.s''sh/config'",
        'sh <<EOF\ncat ~/.ssh/config\nEOF',
        'echo ${x:=.ssh} >/dev/null; cat ~/$x/config',
        'cat ~/.s?h/config',
        'cat ~/.[s]sh/config',
        'cat $PWD/../home/.ssh/config',
        'read x; cat ~/${x:-.ssh}/config',
      ].map((command) => [{ command }, 'SSH keys']),
    );
    await expectSensitive(ground, [
      [{ command: 'cat ~/${x-.aws}/credentials' }, 'AWS credentials'],
      [{ command: "bash -c 'tar cf - ~/${y:-.gnupg}'" }, 'GnuPG keys'],
    ]);
  });
});

describe('relative paths', () => {
  it('resolves them from the working folder, with .. and through ./', async () => {
    const ground = await groundAllowingEverything();
    fs.mkdirSync(path.join(ground.workspace, 'sub'));
    const agenvoy = path.relative(ground.workspace, ground.fx.home);
    await expectSensitive(ground, [
      [{ command: 'cat ../home/.ssh/config' }, 'SSH keys'],
      [{ command: 'cat ./x/../../home/.aws/credentials' }, 'AWS credentials'],
      [{ command: 'cat ../../home/.ssh/id_rsa', cwd: 'sub' }, 'SSH keys'],
      [{ command: 'ls ..' }, 'a folder that contains'],
      [{ command: 'tar cf - ../home' }, 'a folder that contains'],
      [{ command: 'ls ../..', cwd: 'sub' }, 'a folder that contains'],
      [{ command: 'cd .. && tar cf - home' }, 'a folder that contains'],
      [{ command: `cat ${agenvoy}/desktop/approval-rules.json` }, "Agenvoy's own folder"],
      [{ command: `ls ${agenvoy}` }, "Agenvoy's own folder"],
    ]);
  });
});

describe('symlinked cwd and symlinked paths', () => {
  it('follows symlinks in the workspace to where they lead', async () => {
    const ground = await groundAllowingEverything();
    const link = (name: string, target: string) => fs.symlinkSync(target, path.join(ground.workspace, name));
    link('keys', path.join(ground.home, '.ssh'));
    link('k', path.join(ground.home, '.ssh', 'id_ed25519'));
    link('h', ground.home);
    link('b', path.join(ground.home, '.aws'));
    link('a', 'b');
    link('rel', '../home/.gnupg');
    link('new', path.join(ground.home, '.ssh', 'authorized_keys'));
    await expectSensitive(ground, [
      [{ command: 'cat keys/config' }, 'SSH keys'],
      [{ command: 'cat config', cwd: 'keys' }, 'SSH keys'],
      [{ command: 'cat k' }, 'SSH keys'],
      [{ command: 'cat a/credentials' }, 'AWS credentials'],
      [{ command: 'cat rel/pubring.kbx' }, 'GnuPG keys'],
      [{ command: 'ls h' }, 'a folder that contains'],
      [{ command: 'ls', cwd: 'h' }, 'a folder that contains'],
      [{ command: 'echo ssh-rsa AAAA >> new' }, 'SSH keys'],
      [{ command: 'tee new' }, 'SSH keys'],
    ]);
    await expectSensitive(
      ground,
      [
        [{ path: 'keys/authorized_keys', content: 'ssh-rsa AAAA' }, 'SSH keys'],
        [{ path: 'new', content: 'ssh-rsa AAAA' }, 'SSH keys'],
        [{ path: 'a/credentials', content: 'x' }, 'AWS credentials'],
      ],
      'write_note',
    );
    expect(fs.existsSync(path.join(ground.home, '.ssh', 'authorized_keys'))).toBe(false);
  });

  it('covers no call by a rule when the working folder leads out of the workspace, and says so', async () => {
    const prompter = new ScriptedPrompter(() => ({ kind: 'deny' }));
    const ground = attackGround({ prompter });
    await ground.fx.gate.rules.add({ tool: 'run_command', pattern: 'ls', effect: 'allow' });
    fs.mkdirSync(path.join(ground.base, 'outside'));
    fs.symlinkSync(path.join(ground.base, 'outside'), path.join(ground.workspace, 'out'));
    expect((await ground.call({ command: 'ls' })).outcome).toBe('ok');
    expect((await ground.call({ command: 'ls', cwd: 'out' })).outcome).toBe('denied');
    expect((await ground.call({ command: 'pwd', cwd: '..' })).outcome).toBe('denied');
    expect(prompter.questions.map((q) => q.noStanding)).toEqual([
      expect.stringContaining(`leads outside the workspace (to ${path.join(ground.base, 'outside')})`),
      expect.stringContaining('leads outside the workspace'),
    ]);
  });
});

describe('~/.ſsh and other spellings a case-insensitive file system reads as the name', () => {
  it('asks for them as for the name itself (APFS and NTFS fold ſ to s; HFS+ ignores zero-width characters)', async () => {
    const ground = await groundAllowingEverything();
    await expectSensitive(ground, [
      [{ command: 'cat ~/.ſsh/id_rsa' }, 'SSH keys (~/.ssh)'],
      [{ command: 'cat ~/.a\u200cws/credentials' }, 'AWS credentials (~/.aws)'],
      [{ command: 'cat ~/.SSH./config' }, 'SSH keys (~/.ssh)'],
      [{ command: 'cat ~/.ｓｓｈ/config' }, 'SSH keys (~/.ssh)'],
      [{ command: 'cat ./.en\u200dv' }, 'a .env file'],
    ]);
  });
});
