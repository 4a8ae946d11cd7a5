import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLine, SecretsFile } from './secrets-file';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-secrets-file-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('parseLine', () => {
  it('reads KEY=value lines, with an optional export prefix, keeping the value as written', () => {
    expect(parseLine('API_KEY=abc=def ')).toEqual({ key: 'API_KEY', value: 'abc=def ' });
    expect(parseLine('  export TOKEN = x')).toEqual({ key: 'TOKEN', value: ' x' });
    expect(parseLine('EMPTY=')).toEqual({ key: 'EMPTY', value: '' });
    for (const junk of ['', '# COMMENT=1', 'no equals', '9BAD=1', 'bad-name=1'])
      expect(parseLine(junk)).toBeNull();
  });
});

describe('SecretsFile', () => {
  it('keeps the last of duplicate lines, reads CRLF files, and leaves no temp file behind', async () => {
    const file = path.join(dir, 'crlf', '.secrets');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, 'A_KEY=one\r\nA_KEY=two\r\nB_KEY=three\r\n');
    const secrets = new SecretsFile(file);
    expect(await secrets.get('A_KEY')).toBe('two');
    await secrets.set('A_KEY', 'four');
    expect(fs.readFileSync(file, 'utf8')).toBe('B_KEY=three\nA_KEY=four\n');
    expect(await secrets.delete('NOT_THERE')).toBe(false);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['.secrets']);
  });

  it('has no entries when the file does not exist', async () => {
    expect([...(await new SecretsFile(path.join(dir, 'absent', '.secrets')).entries())]).toEqual([]);
  });
});
