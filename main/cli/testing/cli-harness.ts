// Running the `agenvoy` command in tests as a hostile model or repository would meet it: in-process through main()
// with no terminal, through the real bin/agenvoy, and `agenvoy chat` against a scripted model that makes the calls.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ScriptedServer } from '../../agent/providers/testing/scripted-server';
import { openAiEvents, startOpenAiTestServer } from '../../agent/providers/testing/openai-test-server';
import type { CliIo } from '../io';
import { main } from '../../launcher/main';

/** What a command printed and how it ended. */
export interface CliRun {
  /** null: runBin killed it at its timeout. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Where a run happens: $AGENVOY_HOME, the working folder, and the environment the command sees. */
export interface CliPlace {
  home: string;
  cwd: string;
  /** Added to { AGENVOY_HOME, PATH }; e.g. HOME pointed at a fake home with a canary key in it. */
  env?: Record<string, string>;
  /** Whether a person sits at the terminal (default false: nobody can answer a prompt). */
  interactive?: boolean;
  /** What standard input holds (default: nothing); runCli only. */
  stdin?: string | Buffer;
  /** runBin only: the run is killed (code null) past this many ms (default 120,000). */
  timeoutMs?: number;
}

/** Runs `agenvoy <argv>` in-process. */
export async function runCli(argv: string[], place: CliPlace): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: Readable.from(place.stdin === undefined ? [] : [place.stdin]),
    interactive: place.interactive ?? false,
    env: { AGENVOY_HOME: place.home, PATH: process.env.PATH ?? '/usr/bin:/bin', ...place.env },
    cwd: place.cwd,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** Runs the real bin/agenvoy as a child process (stdin closed: no terminal). */
export function runBin(argv: string[], place: CliPlace): Promise<CliRun> {
  const bin = path.resolve(__dirname, '../../../bin/agenvoy');
  const env: NodeJS.ProcessEnv = { ...process.env, AGENVOY_HOME: place.home, ...place.env };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  delete env.DISPLAY;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...argv],
      { cwd: place.cwd, env, timeout: place.timeoutMs ?? 120_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : error.killed ? null : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** One tool call the scripted model makes. */
export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

/** A chat turn's run, the model's requests, and the tool results the model was sent back. */
export interface ChatRun extends CliRun {
  server: ScriptedServer;
  /** The text of each tool result the model received, by call id. */
  toolResults: Record<string, string>;
}

/** How a scripted chat runs: the approval policy, a person at the terminal, and settings added to the model's. */
export interface ChatRoundsOptions {
  approve?: 'ask' | 'allow' | 'deny';
  /** A person at the terminal typing this (default: no terminal, nobody can answer). */
  stdin?: string;
  /** Merged into settings.json (e.g. `web: { allowedHosts: ['127.0.0.1'] }`: loopback standing for public hosts). */
  settings?: Record<string, unknown>;
}

/**
 * Runs `agenvoy chat --json --approve <approve>` against a local model that loads the tools it needs
 * (`find_tools select:`), makes each round's calls in turn (ids `call_0`, `call_1`… across rounds), then answers
 * "done". The settings of `place.home` are pointed at that model.
 */
export async function chatRounds(
  rounds: ScriptedCall[][],
  place: CliPlace,
  options: ChatRoundsOptions = {},
): Promise<ChatRun> {
  const server = await startOpenAiTestServer();
  try {
    fs.mkdirSync(path.join(place.home, 'desktop'), { recursive: true });
    fs.writeFileSync(
      path.join(place.home, 'desktop', 'settings.json'),
      JSON.stringify({
        provider: 'openai',
        baseUrl: server.baseUrl,
        model: 'scripted',
        apiKeyName: null,
        ...options.settings,
      }),
    );
    const names = [...new Set(rounds.flat().map((call) => call.name))].join(',');
    let n = 0;
    server.enqueue(
      {
        events: openAiEvents([
          {
            toolCall: {
              id: 'load',
              name: 'find_tools',
              args: JSON.stringify({ mode: 'search', query: `select:${names}` }),
            },
          },
        ]),
      },
      ...rounds.map((round) => ({
        events: openAiEvents(
          round.map((call) => ({
            toolCall: { id: `call_${n++}`, name: call.name, args: JSON.stringify(call.args) },
          })),
        ),
      })),
      { events: openAiEvents([{ text: 'done' }]) },
    );
    const run = await runCli(
      ['chat', 'do the task', '--json', '--approve', options.approve ?? 'ask', '--workspace', place.cwd],
      options.stdin === undefined ? place : { ...place, interactive: true, stdin: options.stdin },
    );
    const toolResults: Record<string, string> = {};
    for (const request of server.requests.slice(1)) {
      for (const message of request.body?.messages ?? []) {
        if (message.role === 'tool') toolResults[message.tool_call_id] = String(message.content);
      }
    }
    return { ...run, server, toolResults };
  } finally {
    await server.close();
  }
}

/** chatRounds with one round of calls. */
export function chatWithCalls(
  calls: ScriptedCall[],
  place: CliPlace,
  approve: 'ask' | 'allow' | 'deny' = 'ask',
): Promise<ChatRun> {
  return chatRounds([calls], place, { approve });
}
