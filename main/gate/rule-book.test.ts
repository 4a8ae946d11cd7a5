import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from './default-rules';
import { RuleBook } from './rule-book';
import { RuleFileError, RuleStore } from './rule-store';

function tempBook() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-rules-'));
  const store = RuleStore.inDesktop(path.join(dir, 'desktop'));
  return { dir, store, book: new RuleBook(store), file: store.file };
}

describe('RuleBook', () => {
  it('lists the shipped defaults, visible and marked as such, before any file exists', async () => {
    const { book, file } = tempBook();
    const rules = await book.list();
    expect(rules.map((r) => r.id)).toEqual(DEFAULT_RULES.map((r) => r.id));
    expect(rules.find((r) => r.id === 'default-git-status')).toMatchObject({
      origin: 'default',
      tool: 'run_command',
      pattern: 'git status **',
      effect: 'allow',
      createdAt: null,
      void: false,
    });
    expect(fs.existsSync(file)).toBe(false);
  });

  it('adds user rules to a file written atomically with mode 0600', async () => {
    const { book, file } = tempBook();
    const rule = await book.add({
      tool: 'run_command',
      pattern: 'npm test',
      effect: 'allow',
      definitions: { run_command: 'h1' },
    });
    expect(rule).toMatchObject({
      origin: 'user',
      tool: 'run_command',
      pattern: 'npm test',
      effect: 'allow',
      definitions: { run_command: 'h1' },
    });
    expect(Date.parse(rule.createdAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(saved.rules).toHaveLength(1);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('does not repeat an identical rule and replaces the opposite effect on the same pattern', async () => {
    const { book } = tempBook();
    const first = await book.add({ tool: 'script_x', effect: 'allow', definitions: { script_x: 'a' } });
    const again = await book.add({ tool: 'script_x', effect: 'allow', definitions: { script_x: 'b' } });
    expect(again.id).toBe(first.id);
    expect(again.definitions).toEqual({ script_x: 'b' });
    const deny = await book.add({ tool: 'script_x', effect: 'deny' });
    const users = (await book.list()).filter((r) => r.origin === 'user');
    expect(users.map((r) => [r.id, r.effect])).toEqual([[deny.id, 'deny']]);
  });

  it('revokes user rules, and remembers a revoked default across books', async () => {
    const { book, store } = tempBook();
    const rule = await book.add({ tool: 'script_x', effect: 'deny' });
    expect(await book.revoke(rule.id)).toMatchObject({ kind: 'revoked', rule: { id: rule.id } });
    expect(await book.revoke('default-ls')).toMatchObject({ kind: 'revoked', rule: { origin: 'default' } });
    expect(await book.revoke('default-ls')).toEqual({ kind: 'not_found', id: 'default-ls' });
    expect(await book.revoke('rule-nope')).toEqual({ kind: 'not_found', id: 'rule-nope' });
    const other = new RuleBook(new RuleStore(store.file));
    const ids = (await other.list()).map((r) => r.id);
    expect(ids).not.toContain('default-ls');
    expect(ids).not.toContain(rule.id);
    expect(ids).toContain('default-pwd');
  });

  it('sees changes another process made to the file', async () => {
    const { book, store } = tempBook();
    await book.list();
    const other = new RuleBook(new RuleStore(store.file));
    const added = await other.add({ tool: 'mcp__github__*', effect: 'allow' });
    expect((await book.list()).map((r) => r.id)).toContain(added.id);
  });

  it('reports a rule as void when a bound tool now has another definition', async () => {
    const { book } = tempBook();
    const rule = await book.add({
      tool: 'mcp__gh__*',
      effect: 'allow',
      definitions: { mcp__gh__a: 'h1', mcp__gh__b: 'h2' },
    });
    const deny = await book.add({ tool: 'script_y', effect: 'deny', definitions: { script_y: 'h1' } });
    const now: Record<string, string> = { mcp__gh__a: 'h1', mcp__gh__b: 'CHANGED', script_y: 'CHANGED' };
    const views = await book.list((tool) => now[tool]);
    expect(views.find((r) => r.id === rule.id)).toMatchObject({ void: true, changedTools: ['mcp__gh__b'] });
    // A changed definition never loosens a deny.
    expect(views.find((r) => r.id === deny.id)).toMatchObject({ void: false });
  });

  it('applies no rule at all from a damaged file and refuses to overwrite it', async () => {
    const { book, file } = tempBook();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version":1,"rules":[{"id":"x"}],"revokedDefaults":[]}');
    expect(await book.current()).toMatchObject({ kind: 'damaged' });
    await expect(book.add({ tool: 'a', effect: 'allow' })).rejects.toBeInstanceOf(RuleFileError);
    fs.writeFileSync(file, 'not json');
    expect(await book.current()).toMatchObject({
      kind: 'damaged',
      problem: expect.stringContaining('not valid JSON'),
    });
    expect(fs.readFileSync(file, 'utf8')).toBe('not json');
  });

  it('binds a rule to the first definition it meets, once', async () => {
    const { book } = tempBook();
    const rule = await book.add({ tool: 'script_*', effect: 'allow' });
    await book.bind(rule.id, 'script_a', 'h1');
    await book.bind(rule.id, 'script_a', 'h2');
    expect((await book.list()).find((r) => r.id === rule.id)?.definitions).toEqual({ script_a: 'h1' });
  });
});
