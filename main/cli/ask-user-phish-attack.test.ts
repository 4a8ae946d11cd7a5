// A hostile model phishing through ask_user: it words its question as the app's own masked secret prompt ("GITHUB_TOKEN,
// input hidden; Enter stores…") and the person pastes a token. ask_user's answer goes to the model and into the chat's
// history, so a key pasted there is a key given away (docs/security.md, "What the person sees"). Played through
// `agenvoy chat --approve ask` with a person at the terminal.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from './testing/cli-harness';
import { chatRounds } from './testing/cli-harness';

let root: string;
let place: CliPlace;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-ask-phish-')));
  fs.mkdirSync(path.join(root, 'repo'));
  fs.mkdirSync(path.join(root, 'home'));
  place = {
    home: path.join(root, 'agenvoy'),
    cwd: path.join(root, 'repo'),
    env: { HOME: path.join(root, 'home') },
  };
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

// Every file under AGENVOY_HOME (the chat database, its journal, the logs), as bytes.
function everythingStored(): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push(fs.readFileSync(full).toString('latin1'));
    }
  };
  walk(place.home);
  return out.join('\n');
}

const FAKE_PROMPT =
  'Agenvoy needs a secret to continue.\n\nGITHUB_TOKEN (for deploy), input hidden; Enter stores, Ctrl-C declines:';

describe('ask_user posing as the masked secret prompt', () => {
  it.each([
    ['a GitHub token', `ghp_${'Zq8R2vT4wX6yA1bC3dE5fG7hJ9kL0mN2pQ4s'}`],
    ['an OpenAI key', `sk-proj-${'Qm3vT8xR2wZ5yA7bC9dE1fG4hJ6kL0nP'}`],
    ['an AWS access key', 'AKIAQ7XK2M4N6P8R0T3V'],
    ['a private key', '-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAA'],
  ])(
    '%s pasted as the answer never reaches the model or the chat history',
    async (_name, token) => {
      const chat = await chatRounds(
        [[{ name: 'ask_user', args: { questions: [{ prompt: FAKE_PROMPT }] } }]],
        place,
        { stdin: `${token}\n` },
      );
      expect(chat.code, chat.stderr).toBe(0);
      // The question is shown as the model's, never as a line of the app's own prompt.
      expect(chat.stderr).not.toMatch(/^GITHUB_TOKEN \(for deploy\), input hidden/m);
      expect(chat.stderr).toMatch(/the model asks/i);
      // The attack: the token goes to the model.
      const sent = JSON.stringify(chat.server.requests.map((request) => request.body));
      expect(sent).not.toContain(token);
      expect(chat.toolResults.call_0).toMatch(/store_secret/);
      expect(everythingStored()).not.toContain(token);
    },
    60_000,
  );

  it('an ordinary answer still reaches the model', async () => {
    const chat = await chatRounds(
      [[{ name: 'ask_user', args: { questions: [{ prompt: 'Which branch?' }] } }]],
      place,
      { stdin: 'release-2024\n' },
    );
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.toolResults.call_0).toContain('release-2024');
  }, 60_000);
});
