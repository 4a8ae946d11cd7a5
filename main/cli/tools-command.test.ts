// `agenvoy tools list|search|lint|call`, in-process through main() and once through the real bin/agenvoy.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from './io';
import { main } from '../launcher/main';

let home: string;
let workspace: string;

function writeTool(root: string, folder: string, manifest: Record<string, unknown>, script: string) {
  const dir = path.join(root, folder);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'tool.json'),
    typeof manifest === 'string' ? manifest : JSON.stringify(manifest),
  );
  fs.writeFileSync(path.join(dir, 'script.js'), script);
}

const wordCount = {
  name: 'word_count',
  description: 'Count the words of a text.\nUse when you need a word count; read_file for the text itself.',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text, e.g. "a b".' } },
    required: ['text'],
  },
  timeout: 5,
};

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-tools-cli-'));
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-ws-'));
  writeTool(
    path.join(home, 'tools', 'script'),
    'wc',
    wordCount,
    'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{console.log(JSON.parse(s).text.split(/\\s+/).filter(Boolean).length)})',
  );
});

function cli(argv: string[], interactive = false) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: Readable.from([]),
    interactive,
    env: { AGENVOY_HOME: home },
    cwd: workspace,
  };
  return main(argv, io).then((code) => ({ code, stdout, stderr }));
}

describe('agenvoy tools', () => {
  it('list --json shows every tool in the JSON shape of docs/tools.md, system tools only with --system', async () => {
    const plain = JSON.parse((await cli(['tools', 'list', '--json'])).stdout) as Array<
      Record<string, unknown>
    >;
    const all = JSON.parse((await cli(['tools', 'list', '--json', '--system'])).stdout) as Array<
      Record<string, unknown>
    >;
    expect(plain.some((t) => t.name === 'find_tools')).toBe(false);
    const findTools = all.find((t) => t.name === 'find_tools');
    expect(findTools).toMatchObject({
      source: 'builtin',
      flags: { alwaysAllow: true, concurrent: false, background: false, systemUse: true },
      timeoutMs: 900000,
      lint: [],
      offeredHeadless: true,
    });
    expect(all.find((t) => t.name === 'ask_user')?.timeoutMs).toBeNull();
    expect(all.find((t) => t.name === 'script_word_count')).toMatchObject({
      source: 'script',
      timeoutMs: 5000,
    });
  });

  it('list --json --system shows every built-in with the flags and limits of the catalogue table', async () => {
    const tools = JSON.parse((await cli(['tools', 'list', '--json', '--system'])).stdout) as Array<{
      name: string;
      flags: Record<string, boolean>;
      timeoutMs: number | null;
      taskTimeoutMs?: number;
      offeredHeadless: boolean;
    }>;
    const byName = new Map(tools.map((t) => [t.name, t]));
    const min = 60_000;
    const table: Array<[string, string[], number | null]> = [
      ['run_command', [], 30 * min],
      ['background_command', ['background'], 15 * min],
      ['subagents', [], 30 * min],
      ['background_subagents', ['background'], 15 * min],
      ['check_task', ['alwaysAllow', 'concurrent'], 15 * min],
      ['cancel_task', [], 15 * min],
      ['http_request', [], 15 * min],
      ['download_file', [], 10 * min],
      ['fetch_page', ['concurrent'], 90_000],
      ['search_web', ['alwaysAllow', 'concurrent'], 90_000],
      ['open_file', [], 10_000],
      ['html_template', [], 30_000],
      ['generate_image', [], 15 * min],
      ['generate_audio', [], 5 * min],
      ['ask_user', ['alwaysAllow', 'systemUse'], null],
      ['store_secret', ['alwaysAllow', 'systemUse'], null],
      ['find_tools', ['alwaysAllow', 'systemUse'], 15 * min],
      ['run_tool', ['alwaysAllow', 'systemUse'], 15 * min],
    ];
    for (const [name, flags, timeoutMs] of table) {
      const tool = byName.get(name);
      expect(tool, name).toBeDefined();
      expect(
        Object.keys(tool?.flags ?? {}).filter((f) => tool?.flags[f]),
        name,
      ).toEqual(expect.arrayContaining(flags));
      for (const flag of ['alwaysAllow', 'concurrent', 'background']) {
        expect(tool?.flags[flag], `${name}.${flag}`).toBe(flags.includes(flag));
      }
      expect(tool?.timeoutMs, name).toBe(timeoutMs);
    }
    // Their tasks' own limit is listed beside: 60 min unless the call says otherwise.
    expect(byName.get('background_command')?.taskTimeoutMs).toBe(60 * min);
    expect(byName.get('background_subagents')?.taskTimeoutMs).toBe(60 * min);
    expect(byName.get('run_command')?.taskTimeoutMs).toBeUndefined();
    expect(byName.get('background_command')?.offeredHeadless).toBe(false);
    expect(byName.get('background_subagents')?.offeredHeadless).toBe(false);
    expect(byName.get('run_command')?.offeredHeadless).toBe(true);
  });

  it('search --json ranks by intent with score, flags and timeout', async () => {
    const { stdout, code } = await cli([
      'tools',
      'search',
      'how many words are in this text',
      '--json',
      '--limit',
      '3',
    ]);
    expect(code).toBe(0);
    const hits = JSON.parse(stdout) as Array<Record<string, unknown>>;
    expect(hits[0]).toMatchObject({ name: 'script_word_count', timeoutMs: 5000 });
    expect(Object.keys(hits[0] ?? {})).toEqual(['name', 'score', 'why', 'description', 'flags', 'timeoutMs']);
    // Why it matched: the query's word, the tool's word it matched, and the fields that hold it.
    expect(hits[0]?.['why']).toMatch(/\bwords(→word)? \(name\b/);
    expect((await cli(['tools', 'search'])).code).toBe(2);
  });

  it('lint --json reports no error for built-ins and reports a bad script folder, with exit 0', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-lint-'));
    writeTool(dir, 'bad', { ...wordCount, name: 'ProcessStuff', description: 'Does things.' }, '');
    fs.mkdirSync(path.join(dir, 'broken'));
    fs.writeFileSync(path.join(dir, 'broken', 'tool.json'), '{ not json');
    fs.writeFileSync(path.join(dir, 'broken', 'script.js'), '');
    const { code, stdout } = await cli(['tools', 'lint', '--dir', dir, '--json']);
    const rows = JSON.parse(stdout) as Array<{ tool: string; source: string; code: string; level: string }>;
    expect(code).toBe(0);
    expect(rows.filter((r) => r.source === 'builtin' && r.level === 'error')).toEqual([]);
    expect(rows.some((r) => r.tool === 'script_ProcessStuff' && r.code === 'R1_NOT_SNAKE_CASE')).toBe(true);
    expect(rows.some((r) => r.tool === 'script_ProcessStuff' && r.code.startsWith('R2_'))).toBe(true);
    expect(rows.some((r) => r.code === 'LOAD_ERROR' && r.tool.endsWith('broken'))).toBe(true);
  });

  it('call runs through the dispatcher: --yes allows, no terminal denies, bad arguments name the field', async () => {
    const denied = await cli(['tools', 'call', 'script_word_count', '{"text":"a b c"}', '--json']);
    expect(denied.code).toBe(1);
    expect(JSON.parse(denied.stdout)).toMatchObject({ outcome: 'denied' });
    expect(JSON.parse(denied.stdout).message).toMatch(/no terminal/);
    const ok = await cli(['tools', 'call', 'script_word_count', '{"text":"a b c"}', '--yes', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ outcome: 'ok', text: '3' });
    const bad = await cli(['tools', 'call', 'script_word_count', '{"txt":"a"}', '--yes', '--json']);
    expect(JSON.parse(bad.stdout)).toMatchObject({ outcome: 'error', code: 'invalid_arguments' });
    expect(JSON.parse(bad.stdout).message).toContain('`text`');
    const unknown = await cli(['tools', 'call', 'no_such_tool', '{}', '--json']);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ outcome: 'error', code: 'unknown_tool' });
  });

  it('call reports a timeout as an outcome', async () => {
    writeTool(
      path.join(home, 'tools', 'script'),
      'sleepy',
      { ...wordCount, name: 'sleepy_job', timeout: 1, parameters: { type: 'object', properties: {} } },
      'setTimeout(() => {}, 60000)',
    );
    const started = Date.now();
    const result = await cli(['tools', 'call', 'script_sleepy_job', '{}', '--yes', '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({
      outcome: 'timed_out',
      message: 'timed out after 1 s',
      limitMs: 1000,
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('list shows limits in words and the lint guidance of each tool by code', async () => {
    writeTool(
      path.join(home, 'tools', 'script'),
      'cc',
      {
        ...wordCount,
        name: 'char_count',
        description:
          'Count the characters of a text.\nUse when you need a character count; word_count for words.',
        parameters: {
          type: 'object',
          properties: { text: { type: 'string', description: 'The text whose characters are counted.' } },
          required: ['text'],
        },
        timeout: 5400,
      },
      'console.log(0)',
    );
    const { code, stdout } = await cli(['tools', 'list']);
    expect(code).toBe(0);
    const row = (name: string) => stdout.split('\n').find((line) => line.startsWith(`${name} `)) ?? '';
    expect(row('run_command')).toMatch(/ 30 min(\s|$)/);
    expect(row('background_command')).toMatch(/ task 1 h(\s|$)/);
    expect(row('script_word_count')).toMatch(/ 5 s(\s|$)/);
    expect(row('script_char_count')).toMatch(/ 1 h 30 min /);
    expect(row('script_char_count')).toContain('1 lint guidance (R3_NO_EXAMPLE)');
    expect(stdout).not.toMatch(/\d+s\b/);
  });

  it('search says when no tool matched, and prints [] with --json', async () => {
    const plain = await cli(['tools', 'search', 'qzxv wqpz']);
    expect(plain).toMatchObject({ code: 0, stdout: 'no tool matched "qzxv wqpz"\n' });
    const json = await cli(['tools', 'search', 'qzxv wqpz', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it('call says how it ended once, and exits non-zero when the command it ran failed', async () => {
    const denied = await cli(['tools', 'call', 'script_word_count', '{"text":"a b c"}']);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(
      /^denied: script_word_count needs approval and there is no terminal to ask; /,
    );
    expect(denied.stderr).not.toContain('denied: denied:');
    const failed = await cli(['tools', 'call', 'run_command', '{"command":"false"}', '--yes']);
    expect(failed.stdout).toMatch(/^exit code 1 \(failed\)/);
    expect(failed.code).toBe(1);
    const failedJson = await cli(['tools', 'call', 'run_command', '{"command":"exit 3"}', '--yes', '--json']);
    expect(JSON.parse(failedJson.stdout)).toMatchObject({ outcome: 'ok', data: { exitCode: 3 } });
    expect(failedJson.code).toBe(1);
    const passed = await cli(['tools', 'call', 'run_command', '{"command":"true"}', '--yes']);
    expect(passed.stdout).toMatch(/^exit code 0 after/);
    expect(passed.code).toBe(0);
  });

  it('works through the real bin/agenvoy right after install', async () => {
    const bin = path.resolve(__dirname, '../../bin/agenvoy');
    const env: NodeJS.ProcessEnv = { ...process.env, AGENVOY_HOME: home };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    const { stdout } = await promisify(execFile)(
      bin,
      ['tools', 'call', 'script_word_count', '{"text":"x y"}', '--yes', '--json'],
      { env, cwd: workspace },
    );
    expect(JSON.parse(stdout)).toMatchObject({ outcome: 'ok', text: '2' });
  });
});
