// Private key and certificate files in the workspace (a TLS key, a deploy key, a keystore), read by a command under a
// rule that allows every command and with nobody to ask. Before, only `id_rsa`-style names always asked, so
// `cat certs/server.key` ran and its key went to the model; now every such name asks, also through a glob, a link or
// another spelling, and nothing is read.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { attackGround, outcomeText } from './testing/attack-workspace';

const KEY = '-----BEGIN PRIVATE KEY-----\nCANARY-KEY-7d1f\n-----END PRIVATE KEY-----\n';

describe('key files in the workspace, under a rule that allows every command', () => {
  it('always ask, however the command names them, and nothing is read', async () => {
    const ground = attackGround();
    await ground.fx.gate.rules.add({ tool: 'run_command', effect: 'allow' });
    const put = (name: string) => {
      fs.mkdirSync(path.dirname(path.join(ground.workspace, name)), { recursive: true });
      fs.writeFileSync(path.join(ground.workspace, name), KEY);
    };
    for (const name of ['certs/server.key', 'deploy.pem', 'release/upload.jks', 'win/site.pfx', 'store.p12'])
      put(name);
    put('putty/me.ppk');
    put('android/app.keystore');
    fs.symlinkSync('certs/server.key', path.join(ground.workspace, 'notes.txt'));
    const commands = [
      'cat certs/server.key',
      'cat ./deploy.pem',
      'head -c 400 certs/SERVER.KEY',
      'cat certs/*.key',
      'cat ./*.pem',
      'base64 < store.p12',
      'cp win/site.pfx /tmp/out',
      'xxd release/upload.jks',
      'cat putty/me.ppk',
      'cat android/app.keystore',
      'openssl pkey -in certs/server.key',
      "sh -c 'cat deploy.pem'",
      'f=deploy.pem; cat $f',
      'cat notes.txt',
      'cat certs/server.key.',
    ];
    for (const command of commands) {
      const outcome = await ground.call({ command });
      expect(outcome.outcome, command).toBe('denied');
      expect(outcomeText(outcome), command).toMatch(/it touches .*(key|certificate)/);
      expect(outcomeText(outcome), command).not.toContain('CANARY-KEY');
    }
    expect(ground.fx.runs).toEqual([]);
    // A command that names no key file still runs under the rule.
    expect((await ground.call({ command: 'ls certs' })).outcome).toBe('ok');
  });
});
