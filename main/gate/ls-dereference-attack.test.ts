// An attack on the default `ls` rule through links the repository plants: every operand must lead inside the
// workspace, but `ls -RL .` follows each link it meets while recursing, so a committed `up -> ../..` or `root -> /`
// lists whatever lies outside. End to end through the real dispatcher, the ConfirmGate and a real run_command, with
// nobody to ask.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { attackGround, outcomeText } from './testing/attack-workspace';

describe('ls following links while it recurses', () => {
  it('asks for -L or --dereference, and still lists the workspace without them', async () => {
    const ground = attackGround();
    const outside = path.join(ground.base, 'srv');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'OUTSIDE-CANARY-payroll.csv'), 'x');
    fs.mkdirSync(path.join(ground.workspace, 'docs'));
    fs.symlinkSync(
      path.relative(path.join(ground.workspace, 'docs'), outside),
      path.join(ground.workspace, 'docs', 'up'),
    );
    for (const command of [
      'ls -RL',
      'ls -lRL .',
      'ls -R -L docs',
      'ls --recursive --dereference',
      'ls -R --dereferenc',
      "ls '-RL'",
      'ls -aLR docs',
    ]) {
      const outcome = await ground.call({ command });
      expect(outcomeText(outcome), command).not.toContain('OUTSIDE-CANARY');
      expect(outcome.outcome, command).toBe('denied');
    }
    const plain = await ground.call({ command: 'ls -R' });
    expect(plain.outcome).toBe('ok');
    expect(outcomeText(plain)).toContain('up');
    expect(outcomeText(plain)).not.toContain('OUTSIDE-CANARY');
    expect((await ground.call({ command: 'ls -R docs dered' })).outcome).not.toBe('denied');
    // A file whose name only looks like the option is an operand.
    expect((await ground.call({ command: 'ls -R -- -L' })).outcome).not.toBe('denied');
  });
});
