// A hostile tool.json (a global script tool, or one in a repository's workspace) declares parameters small as text
// and costly for Ajv, which compiles them on the main thread when the tool registers (docs/security.md, "What a
// tool's schema may cost"). Seen before the bound: a 22-link chain of `anyOf: [{$ref: next}, {$ref: next}]`
// compiled at once and then took 15 s to check one number. Through the real ScriptToolSource and a registry that
// compiles as the app's does (app.ts): the tool is listed broken at step `compile` with the limit, the others work.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppLogger } from '../../core/logger';
import { agenvoyHome, agenvoyPaths } from '../../core/paths';
import { Redactor } from '../../core/redactor';
import { ToolRegistry } from '../../core/registry';
import { ArgumentValidator } from '../../core/validate';
import { ProcessGroups } from '../../process/process-group';
import { manifest, writeToolFolder } from './script-testing';
import { ScriptToolSource } from './script-tool-source';

let tmp: string;
let groups: ProcessGroups;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-costly-'));
  vi.stubEnv('AGENVOY_HOME', path.join(tmp, 'home'));
  groups = new ProcessGroups();
});

afterEach(async () => {
  await groups.killAll();
  vi.unstubAllEnvs();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function chain(links: number): Record<string, unknown> {
  const definitions: Record<string, unknown> = { [`d${links}`]: { type: 'string' } };
  for (let i = 0; i < links; i++) {
    definitions[`d${i}`] = {
      anyOf: [{ $ref: `#/definitions/d${i + 1}` }, { $ref: `#/definitions/d${i + 1}` }],
    };
  }
  return { type: 'object', definitions, properties: { x: { $ref: '#/definitions/d0' } } };
}

describe('a tool.json whose parameters are costly to check', () => {
  it('is listed broken at step compile, naming the limit, at once; the other tools register', async () => {
    const globalDir = agenvoyPaths(agenvoyHome()).globalScripts;
    fs.mkdirSync(globalDir, { recursive: true });
    writeToolFolder(globalDir, 'chain', { manifest: manifest('chain', { parameters: chain(22) }), js: '' });
    writeToolFolder(globalDir, 'fine', { manifest: manifest('fine'), js: '' });
    const validator = new ArgumentValidator();
    const registry = new ToolRegistry(() => [], { checkSchema: (schema) => validator.check(schema) });
    const scripts = new ScriptToolSource({
      registry,
      dirs: [{ dir: globalDir, scope: 'global' }],
      log: new AppLogger(null, new Redactor(), {}, () => {}),
      groups,
      watch: false,
    });
    const started = Date.now();
    await scripts.start();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(registry.entry('script_chain')?.broken).toMatchObject({
      step: 'compile',
      reason: expect.stringMatching(/costs too much to check: it expands to more than 2500 subschemas/),
    });
    expect(registry.get('script_fine')).toBeDefined();
    scripts.stop();
  });
});
