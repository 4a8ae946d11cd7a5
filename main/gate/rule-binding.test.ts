// Approvals bind to the tool's source as well as its definition (docs/security.md): the registry's hash, rule
// matching, the migration of rules saved before, the rules book's rebinding and chat grants.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolSource, ToolSpec } from '../../tools/sdk/types';
import { defineTool } from '../../tools/sdk/types';
import type { ApprovalRequest } from '../core/gate-port';
import {
  boundDefinitionHash,
  definitionHash,
  legacyHashOf,
  ToolRegistry,
  toolToJson,
} from '../core/registry';
import { canonicalArgument } from './canonical-argument';
import { ChatGrants } from './chat-grants';
import { RuleBook } from './rule-book';
import { matchRules } from './rule-match';
import { RuleStore } from './rule-store';
import type { ApprovalRule } from './rule-types';

const description = 'Deploy the site.\nUse when the person asks to publish.';
const parameters = { type: 'object', properties: {} };
const flags = { alwaysAllow: false, concurrent: false, background: false, systemUse: false };

function script(dir: string, scope: 'global' | 'workspace', trusted = scope === 'global'): ToolSource {
  return { kind: 'script', dir, scope, trusted, writable: scope === 'global' ? [dir] : [] };
}

function spec(source: ToolSource, name = 'script_deploy'): ToolSpec {
  return { ...defineTool({ name, description, parameters, handler: () => 'ok' }), source };
}

function request(source: ToolSource, tool = 'script_deploy'): ApprovalRequest {
  return {
    callId: 'c',
    chatId: 'chat',
    tool,
    source,
    flags,
    timeoutMs: 1000,
    definitionHash: boundDefinitionHash({ description, parameters, source }),
    args: {},
    workspace: '/w',
    sandbox: 'sandboxed',
  };
}

function rule(definitions: Record<string, string>, tool = 'script_deploy'): ApprovalRule {
  return {
    origin: 'user',
    id: 'rule-1',
    tool,
    pattern: null,
    except: [],
    effect: 'allow',
    createdAt: '2025-01-01T00:00:00.000Z',
    definitions,
  };
}

const match = (rules: ApprovalRule[], req: ApprovalRequest) =>
  matchRules(rules, req, canonicalArgument(req.tool, req.args));

describe('the definition hash names the source', () => {
  const globalDir = '/home/u/.config/agenvoy/tools/script/deploy';
  const workspaceDir = '/work/repo/.config/agenvoy/tools/script/deploy';

  it('differs between sources with one name and definition, and carries the old hash as its first part', () => {
    const hashes = [
      script(globalDir, 'global'),
      script(workspaceDir, 'workspace'),
      script(workspaceDir, 'workspace', true),
      script('/elsewhere/deploy', 'global'),
      { ...script(globalDir, 'global'), writable: [globalDir, '/srv/www'] },
      { kind: 'mcp', server: 'a', remoteName: 'deploy' } as const,
      { kind: 'mcp', server: 'b', remoteName: 'deploy' } as const,
      { kind: 'builtin' } as const,
    ].map((source) => boundDefinitionHash({ description, parameters, source }));
    // Trust is not part of it: trusting a folder must not void the person's own rules for that folder's tools.
    expect(hashes[1]).toBe(hashes[2]);
    expect(new Set(hashes.filter((_, i) => i !== 2)).size).toBe(hashes.length - 1);
    const legacy = definitionHash(description, parameters);
    for (const hash of hashes) {
      expect(hash.startsWith(`${legacy}@`)).toBe(true);
      expect(legacyHashOf(hash, legacy)).toBe(legacy);
      expect(legacyHashOf(hash, hash)).toBeNull();
    }
    expect(legacyHashOf(hashes[0] as string, definitionHash('other', parameters))).toBeNull();
  });

  it('identifies a script folder by its realpath', () => {
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-hash-')));
    const real = path.join(tmp, 'deploy');
    fs.mkdirSync(real);
    const link = path.join(tmp, 'link');
    fs.symlinkSync(real, link);
    const writable = [real];
    const viaLink: ToolSource = { kind: 'script', dir: link, scope: 'global', trusted: true, writable };
    const direct: ToolSource = { kind: 'script', dir: real, scope: 'global', trusted: true, writable };
    expect(boundDefinitionHash({ description, parameters, source: viaLink })).toBe(
      boundDefinitionHash({ description, parameters, source: direct }),
    );
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the registry never keeps an untrusted tool alwaysAllow, and lists trust and writable folders', () => {
    const registry = new ToolRegistry(() => []);
    const untrusted = spec(script(workspaceDir, 'workspace'), 'script_evil');
    registry.register({ ...untrusted, flags: { ...flags, alwaysAllow: true } });
    expect(registry.get('script_evil')?.spec.flags.alwaysAllow).toBe(false);
    registry.register({ ...spec(script(globalDir, 'global')), flags: { ...flags, alwaysAllow: true } });
    expect(registry.get('script_deploy')?.spec.flags.alwaysAllow).toBe(true);
    expect(toolToJson(registry.get('script_deploy')!)).toMatchObject({
      trusted: true,
      writable: [globalDir],
    });
    expect(toolToJson(registry.get('script_evil')!)).toMatchObject({ trusted: false, writable: [] });
  });
});

describe('a rule applies to the source it approved', () => {
  const globalSource = script('/g/deploy', 'global');
  const trustedWorkspace = script('/w/.config/agenvoy/tools/script/deploy', 'workspace', true);
  const untrustedWorkspace = script('/w/.config/agenvoy/tools/script/deploy', 'workspace', false);

  it('a rule approved for the global tool is void for a workspace look-alike, trusted or not', () => {
    const approved = rule({ script_deploy: request(globalSource).definitionHash });
    expect(match([approved], request(globalSource))).toMatchObject({ kind: 'allow', bind: false });
    expect(match([approved], request(trustedWorkspace))).toMatchObject({ kind: 'none', voided: [approved] });
    expect(match([approved], request(untrustedWorkspace))).toMatchObject({ kind: 'none', voided: [] });
  });

  it('an MCP rule for one server does not cover the same tool of another', () => {
    const a: ToolSource = { kind: 'mcp', server: 'a', remoteName: 'deploy' };
    const b: ToolSource = { kind: 'mcp', server: 'b', remoteName: 'deploy' };
    const approved = rule({ mcp__x__deploy: request(a, 'mcp__x__deploy').definitionHash }, 'mcp__x__deploy');
    expect(match([approved], request(a, 'mcp__x__deploy')).kind).toBe('allow');
    expect(match([approved], request(b, 'mcp__x__deploy')).kind).toBe('none');
  });

  it('an untrusted tool neither matches nor binds a rule that has not met it yet', () => {
    const glob = rule({}, 'script_*');
    expect(match([glob], request(untrustedWorkspace))).toEqual({ kind: 'none', voided: [], compound: null });
    expect(match([glob], request(trustedWorkspace))).toMatchObject({ kind: 'allow', bind: true });
  });

  it('a rule saved with the old hash moves to a global, built-in, MCP or trusted tool, never an untrusted one', () => {
    const legacy = rule({ script_deploy: definitionHash(description, parameters) });
    expect(match([legacy], request(untrustedWorkspace))).toMatchObject({ kind: 'none' });
    expect(match([legacy], request(globalSource))).toMatchObject({ kind: 'allow', bind: true });
    expect(match([legacy], request(trustedWorkspace))).toMatchObject({ kind: 'allow', bind: true });
    expect(match([legacy], request({ kind: 'builtin' }))).toMatchObject({ kind: 'allow', bind: true });
    // A legacy hash of another definition stays void.
    const other = rule({ script_deploy: definitionHash('Something else.', parameters) });
    expect(match([other], request(globalSource))).toMatchObject({ kind: 'none', voided: [other] });
  });

  it('the rules book rebinds a legacy rule once, and never moves a rule already bound to a source', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-rebind-'));
    const book = new RuleBook(RuleStore.inDesktop(path.join(dir, 'desktop')));
    const legacyHash = definitionHash(description, parameters);
    const saved = await book.add({
      tool: 'script_deploy',
      effect: 'allow',
      definitions: { script_deploy: legacyHash },
    });
    // Listed as pending, not as changed: it moves on first use.
    const globalHash = request(globalSource).definitionHash;
    expect((await book.list(() => globalHash)).find((r) => r.id === saved.id)?.void).toBe(false);
    await book.bind(saved.id, 'script_deploy', globalHash);
    await book.bind(saved.id, 'script_deploy', request(trustedWorkspace).definitionHash);
    const after = (await book.list(() => globalHash)).find((r) => r.id === saved.id);
    expect(after?.definitions).toEqual({ script_deploy: globalHash });
    expect(after?.void).toBe(false);
    expect(
      (await book.list(() => request(trustedWorkspace).definitionHash)).find((r) => r.id === saved.id)?.void,
    ).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a chat grant for the global tool does not cover a workspace tool of the same name and definition', () => {
    const grants = new ChatGrants();
    grants.grant('chat', 'script_deploy', request(globalSource).definitionHash);
    expect(grants.has('chat', 'script_deploy', request(globalSource).definitionHash)).toBe(true);
    expect(grants.has('chat', 'script_deploy', request(trustedWorkspace).definitionHash)).toBe(false);
    expect(grants.has('chat', 'script_deploy', request(untrustedWorkspace).definitionHash)).toBe(false);
  });
});
