// `agenvoy chat --attach FILE` against a scripted model: real files in, the image and text in the request, copies in
// the workspace; the same refusals as the app, exit 1 with the reason and nothing sent or saved — in-process and
// through the real bin/agenvoy child process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import type { ScriptedServer } from '../agent/providers/testing/scripted-server';
import { pngBytes } from '../agent/testing/attachment-samples';
import { runBin, runCli } from './testing/cli-harness';
import { useScriptedChatPlace } from './testing/scripted-chat-place';

let home: string;
let cwd: string;
let server: ScriptedServer;
useScriptedChatPlace('attach', (place) => ({ home, cwd, server } = place));

describe('agenvoy chat --attach', () => {
  it('sends an image as an image part and a text file as text, and copies both into the workspace', async () => {
    const png = pngBytes(5, 7);
    fs.writeFileSync(path.join(cwd, 'shot.png'), png);
    fs.writeFileSync(path.join(cwd, 'notes.md'), '# Notes\nbuy milk\n');
    server.enqueue({ events: openAiEvents([{ text: 'A tiny image and a note.' }]) });
    const run = await runCli(
      ['chat', 'what are these?', '--attach', 'shot.png', '--attach', 'notes.md', '--workspace', cwd],
      { home, cwd },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('A tiny image and a note.\n');
    const user = server.requests[0]?.body.messages.find((m: { role: string }) => m.role === 'user');
    expect(user.content).toEqual([
      { type: 'text', text: 'what are these?' },
      {
        type: 'text',
        text: `Attachment "shot.png" (image/png, ${png.length} bytes, 5×7 px) is saved in the workspace as "attachments/shot.png"; the image follows.`,
      },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
      {
        type: 'text',
        text: 'Attachment "notes.md" (text/markdown, 17 bytes) is saved in the workspace as "attachments/notes.md"; its text follows.',
      },
      { type: 'text', text: '# Notes\nbuy milk\n' },
    ]);
    expect(fs.readFileSync(path.join(cwd, 'attachments', 'shot.png'))).toEqual(png);
    expect(fs.readFileSync(path.join(cwd, 'attachments', 'notes.md'), 'utf8')).toBe('# Notes\nbuy milk\n');
  });

  it('takes files without a prompt', async () => {
    fs.writeFileSync(path.join(cwd, 'todo.txt'), 'one\n');
    server.enqueue({ events: openAiEvents([{ text: 'Noted.' }]) });
    const run = await runCli(['chat', '--attach', 'todo.txt', '--workspace', cwd], { home, cwd });
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses in words with exit 1, sending and saving nothing: too much text, a missing file, a folder, too many', async () => {
    fs.writeFileSync(path.join(cwd, 'big.log'), 'x'.repeat(600 * 1024));
    fs.mkdirSync(path.join(cwd, 'folder'));
    fs.writeFileSync(path.join(cwd, 'f.txt'), 'f');
    const cases: Array<[string[], string]> = [
      [
        ['--attach', 'big.log'],
        'agenvoy: "big.log" is 600 KB of text; a text file may be at most 512 KB, since the model reads all of it again with every later message. Put the file in the workspace and ask for the part you need to be read with tools.\n',
      ],
      [['--attach', 'nowhere.png'], 'agenvoy: --attach nowhere.png: no such file\n'],
      [['--attach', 'folder'], 'agenvoy: --attach folder: not a file\n'],
      [
        Array.from({ length: 11 }, () => ['--attach', 'f.txt']).flat(),
        'agenvoy: 11 files were attached; one message may carry at most 10.\n',
      ],
    ];
    for (const [flags, stderr] of cases) {
      const run = await runCli(['chat', 'read it', ...flags, '--workspace', cwd], { home, cwd });
      expect(run).toEqual({ code: 1, stdout: '', stderr });
    }
    expect(server.requests).toHaveLength(0);
    expect(fs.existsSync(path.join(cwd, 'attachments'))).toBe(false);
  });

  it("refuses a cloned repository's links to a key or out of the folder, and secret files by name, sending and saving nothing", async () => {
    // A hostile repository: harmless names that are links to the person's keys (git keeps links), and a hard link.
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-attach-keys-'));
    try {
      const put = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, text);
      };
      put(path.join(outside, '.ssh', 'id_rsa'), 'ATTACH-SSH-CANARY\n');
      put(path.join(outside, '.aws', 'credentials'), 'ATTACH-AWS-CANARY\n');
      put(path.join(outside, 'plain.txt'), 'ATTACH-HARD-LINK-CANARY\n');
      fs.mkdirSync(path.join(cwd, 'docs'));
      fs.symlinkSync(path.join(outside, '.ssh', 'id_rsa'), path.join(cwd, 'docs', 'diagram.png'));
      fs.symlinkSync(path.join(outside, '.aws', 'credentials'), path.join(cwd, 'docs', 'notes.md'));
      fs.linkSync(path.join(outside, 'plain.txt'), path.join(cwd, 'docs', 'readme.txt'));
      put(path.join(cwd, '.env'), 'API_KEY=ATTACH-ENV-CANARY\n');
      put(path.join(cwd, 'certs', 'server.key'), 'ATTACH-TLS-CANARY\n');
      const cases: Array<[string, RegExp]> = [
        ['docs/diagram.png', /--attach docs\/diagram\.png \(it leads to .*\.ssh\/id_rsa\): it is SSH keys/],
        ['docs/notes.md', /--attach docs\/notes\.md \(it leads to .*credentials\): it is AWS credentials/],
        ['docs/readme.txt', /--attach docs\/readme\.txt: the file has more than one name \(a hard link\)/],
        ['.env', /--attach \.env: it is a \.env file, which is never attached/],
        ['certs/server.key', /--attach certs\/server\.key: it is a private key or certificate file/],
      ];
      for (const [file, reason] of cases) {
        const run = await runCli(['chat', 'what is this?', '--attach', file, '--workspace', cwd], {
          home,
          cwd,
        });
        expect(run.code, file).toBe(1);
        expect(run.stderr, file).toMatch(reason);
        expect(run.stderr.includes('CANARY'), file).toBe(false);
      }
      expect(server.requests).toHaveLength(0);
      expect(fs.existsSync(path.join(cwd, 'attachments'))).toBe(false);
      // A link to any other file outside the folder (the person's ~/Documents/tax.pdf), or a linked folder on the way.
      fs.rmSync(path.join(cwd, 'docs', 'readme.txt'));
      put(path.join(outside, 'Documents', 'tax.txt'), 'ATTACH-PRIVATE-CANARY\n');
      fs.symlinkSync(path.join(outside, 'Documents', 'tax.txt'), path.join(cwd, 'docs', 'shared.txt'));
      fs.symlinkSync(path.join(outside, 'Documents'), path.join(cwd, 'docs', 'more'));
      for (const file of ['docs/shared.txt', 'docs/more/tax.txt']) {
        const run = await runCli(['chat', 'what is this?', '--attach', file, '--workspace', cwd], {
          home,
          cwd,
        });
        expect(run.code, file).toBe(1);
        expect(run.stderr, file).toMatch(/leads out of .* through a link; attach that file by its own path/);
      }
      expect(server.requests).toHaveLength(0);
      // A link inside the folder, and a file outside named by its own path, are attached.
      put(path.join(cwd, 'notes', 'plain.txt'), 'plain\n');
      fs.symlinkSync('../notes/plain.txt', path.join(cwd, 'docs', 'inside.txt'));
      for (const file of ['docs/inside.txt', path.join(outside, 'Documents', 'tax.txt')]) {
        server.enqueue({ events: openAiEvents([{ text: 'Plain.' }]) });
        const ok = await runCli(['chat', 'what is this?', '--attach', file, '--workspace', cwd], {
          home,
          cwd,
        });
        expect(ok.code, ok.stderr).toBe(0);
      }
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('the real bin/agenvoy refuses a workspace whose attachments folder is a symlink, exit 1, nothing written there', async () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-attach-elsewhere-'));
    try {
      fs.symlinkSync(elsewhere, path.join(cwd, 'attachments'));
      fs.writeFileSync(path.join(cwd, 'authorized_keys'), 'ssh-ed25519 AAAA attacker\n');
      const run = await runBin(['chat', 'hi', '--attach', 'authorized_keys', '--workspace', cwd], {
        home,
        cwd,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `agenvoy: ${fs.realpathSync(cwd)}/attachments is a symlink; attachments are only copied into a plain "attachments" folder of the workspace, never through a link.`,
      );
      expect(fs.readdirSync(elsewhere)).toEqual([]);
      expect(server.requests).toHaveLength(0);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 120_000);
});
