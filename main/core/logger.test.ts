import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppLogger } from './logger';
import { Redactor } from './redactor';

function logger(redactor = new Redactor()) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-logger-'));
  const root = AppLogger.inDir(dir, redactor);
  const read = () =>
    fs
      .readFileSync(path.join(dir, 'app.log'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => line.replace(/^\S+ /, ''));
  return { root, read };
}

describe('AppLogger', () => {
  it("writes the entry's own fields right after the message, a child's fixed fields after them", () => {
    const { root, read } = logger();
    const child = root.child({ tool: 'script_x', call: 'c1' });
    child.info('running', { name: 'script_x', elapsed: '30s/900s' });
    child.warn('odd', { call: 'override', note: 'two words', gone: undefined });
    child.info('running', { name: 'script_x', elapsed: '60s/900s' }, { context: false });
    expect(read()).toEqual([
      'INFO running name=script_x elapsed=30s/900s tool=script_x call=c1',
      'WARN odd call=override note="two words" tool=script_x',
      'INFO running name=script_x elapsed=60s/900s',
    ]);
  });

  it('redacts values before quoting them, so a secret spanning lines or in an Error is still found', () => {
    const redactor = new Redactor();
    redactor.add('PEM', 'line-one-secret\nline-two-secret');
    redactor.add('TOKEN', 'Token-ABCDEFGH-1234');
    const { root, read } = logger(redactor);
    root.error('failed', {
      error: new Error('bad token token-abcdefgh-1234'),
      pem: 'key: line-one-secret\nline-two-secret',
      nested: { list: ['Token-ABCDEFGH-1234'] },
    });
    const [line] = read();
    expect(line).toBe(
      'ERROR failed error="bad token [redacted:TOKEN]" pem="key: [redacted:PEM]" ' +
        'nested={"list":["[redacted:TOKEN]"]}',
    );
  });
});
