import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatArgs, visible } from './format-request';
import { TerminalPrompter } from './terminal-prompter';
import type { ToolSpec } from '../../tools/sdk/types';
import { gateFixture, recordingTool } from './testing/gate-fixture';

const scope = { chatId: 'chat-1', workspace: '/tmp' };

function terminal(
  lines: string[] | null,
  options: { end?: boolean; timeoutMs?: number | null; extraTools?: ToolSpec[] } = {},
) {
  const input = new PassThrough();
  let output = '';
  const prompter = new TerminalPrompter({ input, write: (text) => (output += text) });
  if (lines) input.write(lines.map((line) => line + '\n').join(''));
  if (options.end) input.end();
  const fx = gateFixture({
    prompter,
    timeoutMs: options.timeoutMs ?? null,
    ...(options.extraTools ? { extraTools: options.extraTools } : {}),
  });
  return { fx, input, output: () => output };
}

const run = (command: string, id = command) => ({ id, name: 'run_command', args: { command } });

describe('TerminalPrompter', () => {
  it('shows the tool, source, flags, limit and arguments, and reads one answer per item', async () => {
    const { fx, output } = terminal(['y', 'n', 'wrong database', 'n too risky']);
    const results = await fx.executor.run(
      [run('npm test', 'a'), run('psql prod', 'b'), run('make clean', 'c')],
      scope,
    );
    expect(results.map((r) => r.outcome)).toEqual([
      expect.objectContaining({ outcome: 'ok' }),
      { outcome: 'denied', message: 'denied by the user: wrong database', reason: 'wrong database' },
      { outcome: 'denied', message: 'denied by the user: too risky', reason: 'too risky' },
    ]);
    const text = output();
    expect(text).toContain('3 tool calls need approval');
    expect(text).toContain('Approve tool call 1 of 3: run_command');
    expect(text).toContain('source:  built-in');
    expect(text).toContain('flags:   none · limit 900 s');
    expect(text).toContain('"command": "psql prod"');
    expect(text).toContain(
      '[y] allow once  [c] allow npm for this chat  [a] always allow (this command)  [d] always deny',
    );
    expect(text).toContain('Reason for the model');
  });

  it('always allow with Enter saves the exact command line; a typed glob saves that glob', async () => {
    const { fx, output } = terminal(['a', '', 'a', 'git push **']);
    await fx.dispatcher.dispatch(run('npm run build'), scope);
    await fx.dispatcher.dispatch(run('git push origin main'), scope);
    const users = (await fx.gate.rules.list()).filter((r) => r.origin === 'user');
    expect(users.map((r) => [r.pattern, r.effect])).toEqual([
      ['npm run build', 'allow'],
      ['git push **', 'allow'],
    ]);
    expect(output()).toMatch(
      /Saved rule rule-[0-9a-f]+: always allow run_command "npm run build" \(undo: agenvoy rules revoke rule-/,
    );
    expect((await fx.dispatcher.dispatch(run('git push origin feature'), scope)).outcome).toBe('ok');
    expect(fx.runs).toHaveLength(3);
  });

  it('always deny with "-" covers any command line of the tool', async () => {
    const { fx } = terminal(['d', '-']);
    expect((await fx.dispatcher.dispatch(run('curl example.com'), scope)).outcome).toBe('denied');
    expect((await fx.gate.rules.list()).filter((r) => r.origin === 'user')).toEqual([
      expect.objectContaining({ tool: 'run_command', pattern: null, effect: 'deny' }),
    ]);
    expect((await fx.dispatcher.dispatch(run('ls -la'), scope)).outcome).toBe('denied');
  });

  it('re-asks on an answer it does not know and on a standing answer a sensitive call does not offer', async () => {
    const { fx, output } = terminal(['maybe', 'c', 'y']);
    expect((await fx.dispatcher.dispatch(run('cat ~/.ssh/config'), scope)).outcome).toBe('ok');
    const text = output();
    expect(text).toContain('! sensitive: SSH keys (~/.ssh)');
    expect(text).toContain('Please answer y, d, n, s, v.');
    expect(text).not.toContain('[c]');
    expect(fx.gate.grants.list('chat-1')).toEqual([]);
  });

  it('names what "allow for this chat" covers: the site, the program, or the program and the sites it names', async () => {
    const fetchPage = recordingTool('fetch_page', [], { url: { type: 'string', description: 'x' } });
    const { fx, output } = terminal(['y', 'y', 'y'], { extraTools: [fetchPage] });
    await fx.dispatcher.dispatch(
      { id: 'f', name: 'fetch_page', args: { url: 'https://docs.python.org/3/' } },
      scope,
    );
    await fx.dispatcher.dispatch(run('curl -s https://api.example.com/v1/x'), scope);
    // A lookalike host is named as the network sees it, and a control character cannot repaint the menu.
    await fx.dispatcher.dispatch(
      { id: 'g', name: 'fetch_page', args: { url: 'https://api.githu\u042c.com/\u001b[2K' } },
      scope,
    );
    const menus = output()
      .split('\n')
      .filter((line) => line.startsWith('[y] allow once'));
    expect(menus[0]).toContain('[c] allow https://docs.python.org for this chat');
    expect(menus[1]).toContain('[c] allow curl to https://api.example.com for this chat');
    expect(menus[2]).toContain('[c] allow https://api.xn--githu-10e.com for this chat');
  });

  it('folds long values with a note and shows them whole on v', async () => {
    const long = 'x'.repeat(5000) + 'THE-END';
    const { fx, output } = terminal(['v', 'y']);
    await fx.dispatcher.dispatch(
      { id: '1', name: 'write_note', args: { path: 'a.md', content: long } },
      scope,
    );
    const text = output();
    expect(text).toContain('characters folded');
    expect(text).toContain('answer v to see them whole');
    expect(text).toContain(long);
  });

  it('makes terminal control characters in arguments visible instead of letting them repaint the prompt', () => {
    expect(visible('ok\u001b[2K\u009b\u202eevil')).toBe('ok\\u{001b}[2K\\u{009b}\\u{202e}evil');
    expect(formatArgs({ command: 'ls \u001b[1Arm -rf /' })).not.toContain('\u001b');
  });

  it('stops the turn on s', async () => {
    const { fx } = terminal(['s']);
    let stopped = false;
    const results = await fx.executor.run([run('a', '1'), run('b', '2')], {
      ...scope,
      stopTurn: () => (stopped = true),
    });
    expect(stopped).toBe(true);
    expect(results.map((r) => r.outcome.outcome)).toEqual(['denied', 'denied']);
  });

  it('denies when the input ends without an answer', async () => {
    const { fx } = terminal([], { end: true });
    const outcome = await fx.dispatcher.dispatch(run('npm test'), scope);
    expect(outcome).toMatchObject({
      outcome: 'denied',
      message: 'denied: the prompt ended without an answer',
    });
  });

  it('tells the user when a question timed out, and reads the next answer for the next question', async () => {
    const { fx, input, output } = terminal(null, { timeoutMs: 100 });
    const outcome = await fx.dispatcher.dispatch(run('npm test'), scope);
    expect(outcome).toMatchObject({ outcome: 'denied', message: 'denied: no answer within 0.1 s' });
    expect(output()).toContain('(unanswered calls are denied after 0.1 s)');
    expect(output()).toContain('No answer within 0.1 s: denied run_command.');
    setTimeout(() => input.write('y\n'), 20);
    expect((await fx.dispatcher.dispatch(run('npm test', 'again'), scope)).outcome).toBe('ok');
  });
});
