import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { Redactor } from '../core/redactor';
import { healQuestion, PromptingHealer } from './prompting-healer';
import type { SecretPrompt, SecretRequest } from './secret-prompt';
import { StoringSecretPrompt } from './secret-prompt';
import { SecretStore } from './secret-store';
import { TerminalSecretPrompt } from './terminal-prompt';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

// A file-backed store with the keychain probe answered up front, so this file never touches a keychain.
function fileStore() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-prompt-'));
  dirs.push(dir);
  return new SecretStore({
    secretsFile: path.join(dir, '.secrets'),
    redactor: new Redactor(),
    env: {},
    detect: async () => ({ usable: false, reason: 'keychain left out of this test', probeMs: 0 }),
  });
}

// A prompt the test answers by hand, to see how many are open at once.
function manualPrompt() {
  const open: Array<{ request: SecretRequest; answer: (value: string | null) => void }> = [];
  const prompt: SecretPrompt = {
    read: (request) => new Promise((resolve) => open.push({ request, answer: resolve })),
  };
  return { prompt, open };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('StoringSecretPrompt', () => {
  it('stores what was entered and returns only stored or declined, one prompt at a time', async () => {
    const store = fileStore();
    const { prompt, open } = manualPrompt();
    const port = new StoringSecretPrompt(prompt, store);
    const signal = new AbortController().signal;
    const first = port.ask({ key: 'FIRST_KEY', question: 'first?' }, signal);
    const second = port.ask({ key: 'SECOND_KEY', question: 'second?' }, signal);
    await tick();
    expect(open).toHaveLength(1);
    open[0]?.answer('first-value-1');
    await expect(first).resolves.toBe('stored');
    await tick();
    expect(open).toHaveLength(2);
    open[1]?.answer(null);
    await expect(second).resolves.toBe('declined');
    expect(await store.get('FIRST_KEY')).toBe('first-value-1');
    expect(await store.get('SECOND_KEY')).toBeUndefined();
    expect(store.redactor.redact('first-value-1')).toBe('[redacted:FIRST_KEY]');
  });

  it('does not open a prompt for a cancelled turn', async () => {
    const { prompt, open } = manualPrompt();
    const controller = new AbortController();
    controller.abort(new Error('turn cancelled'));
    await expect(
      new StoringSecretPrompt(prompt, fileStore()).ask({ key: 'K_EY', question: 'q' }, controller.signal),
    ).rejects.toThrow('turn cancelled');
    expect(open).toHaveLength(0);
  });
});

describe('PromptingHealer', () => {
  it('asks for the failed key with a question naming the tool and the reason', async () => {
    const { prompt, open } = manualPrompt();
    const store = fileStore();
    const healer = new PromptingHealer(new StoringSecretPrompt(prompt, store));
    const healed = healer.heal(
      { key: 'API_TOKEN', reason: 'expired', tool: 'fetch_news', chatId: 'c' },
      new AbortController().signal,
    );
    await tick();
    expect(open[0]?.request).toEqual({
      key: 'API_TOKEN',
      forTool: 'fetch_news',
      question: healQuestion('API_TOKEN', 'expired', 'fetch_news'),
    });
    expect(open[0]?.request.question).toBe(
      'fetch_news failed: the stored API_TOKEN has expired. Enter a value to store it and retry.',
    );
    open[0]?.answer('fresh-token-1');
    await expect(healed).resolves.toBe(true);
    expect(await store.get('API_TOKEN')).toBe('fresh-token-1');
  });
});

describe('TerminalSecretPrompt cancellation', () => {
  it('restores the terminal mode and rejects with the turn’s reason', async () => {
    // A stand-in for a TTY stream: the real-pty tests cover typing; this one covers an abort mid-prompt.
    const modes: boolean[] = [];
    const input = Object.assign(new PassThrough(), {
      isTTY: true,
      isRaw: false,
      setRawMode: (mode: boolean) => modes.push(mode),
    });
    let shown = '';
    const controller = new AbortController();
    const reading = new TerminalSecretPrompt(input, (text) => (shown += text)).read(
      { key: 'K_EY', question: 'Key?' },
      controller.signal,
    );
    input.write('typed-so-far');
    await tick();
    controller.abort(new Error('turn cancelled'));
    await expect(reading).rejects.toThrow('turn cancelled');
    expect(modes).toEqual([true, false]);
    expect(shown).not.toContain('typed-so-far');
    expect(input.listenerCount('data')).toBe(0);
  });
});
