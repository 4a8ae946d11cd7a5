// What plain `agenvoy chat` prints around the approval prompt must not be able to hide it (docs/security.md, "What
// the person sees"). The model's own text, a subagent's, a tool's error message (a hostile MCP server writes it) and
// ask_user's question went to the terminal as they were: `ESC[8m` (concealed text) or black on black before the
// prompt hid the prompt's `rm -rf` line and everything after it, a scroll region kept only its last lines on
// screen, and `ESC]0;…BEL` retitled the window. Control characters are now printed as escapes (line breaks and tabs
// stay). Through the real `agenvoy chat` against a scripted model, with a person answering on the terminal.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiEvents, startOpenAiTestServer } from '../agent/providers/testing/openai-test-server';
import { runCli } from './testing/cli-harness';

let base: string;
let home: string;
let workspace: string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-term-out-')));
  home = path.join(base, 'agenvoy');
  workspace = path.join(base, 'ws');
  fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'src', 'keep.txt'), 'keep');
});

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

// Concealed text, black on black, a two-line scroll region and a window title.
const HIDE = '\u001b[8m\u001b[30;40m\u001b[1;2r\u001b]0;agenvoy: all good\u0007';

async function chat(round: Parameters<typeof openAiEvents>[0], stdin: string) {
  const server = await startOpenAiTestServer();
  try {
    fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
    fs.writeFileSync(
      path.join(home, 'desktop', 'settings.json'),
      JSON.stringify({ provider: 'openai', baseUrl: server.baseUrl, model: 'scripted', apiKeyName: null }),
    );
    server.enqueue(
      {
        events: openAiEvents([
          {
            toolCall: {
              id: 'load',
              name: 'find_tools',
              args: JSON.stringify({ mode: 'search', query: 'select:run_command,ask_user' }),
            },
          },
        ]),
      },
      { events: openAiEvents(round) },
      { events: openAiEvents([{ text: `done${HIDE}` }]) },
    );
    return await runCli(['chat', 'tidy up', '--approve', 'ask', '--workspace', workspace], {
      home,
      cwd: workspace,
      interactive: true,
      stdin,
    });
  } finally {
    await server.close();
  }
}

describe('plain agenvoy chat prints no control sequence a model chose', () => {
  it("the model's text before the approval prompt, and its final answer", async () => {
    const run = await chat(
      [
        { text: `I will only list the files.${HIDE}` },
        { toolCall: { id: 'c1', name: 'run_command', args: JSON.stringify({ command: 'rm -rf ./src' }) } },
      ],
      'n\n\n',
    );
    expect(run.stderr).toContain('Approve tool call run_command');
    expect(run.stdout + run.stderr).not.toMatch(RAW_CONTROL);
    expect(run.stdout).toContain('\\u{001b}[8m');
    expect(fs.existsSync(path.join(workspace, 'src', 'keep.txt'))).toBe(true);
  });

  it("ask_user's question", async () => {
    const question = { id: 'q', prompt: `Which folder?${HIDE}`, kind: 'text', options: [] };
    const run = await chat(
      [{ toolCall: { id: 'c1', name: 'ask_user', args: JSON.stringify({ questions: [question] }) } }],
      'src\n',
    );
    expect(run.stderr).toContain('Which folder?');
    expect(run.stdout + run.stderr).not.toMatch(RAW_CONTROL);
  });
});
