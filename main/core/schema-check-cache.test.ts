// The compile results kept on disk (docs/hosts.md, "Fast start"): a schema that compiled is not compiled again at the
// next start, a failing one always is, and the file can only ever skip a check that the first call then makes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../tools/sdk/types';
import { SchemaCheckCache } from './schema-check-cache';
import { ArgumentValidator, validatorId } from './validate';
import { ToolRegistry } from './registry';
import { lintTool } from './lint/lint-tool';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function cacheFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-schema-cache-'));
  temps.push(dir);
  return path.join(dir, 'cache', 'schema-checks.json');
}

const good: JsonSchema = {
  type: 'object',
  properties: { region: { type: 'string', format: 'uri' } },
  required: ['region'],
};
// Valid JSON, but Ajv cannot compile it: the reference points nowhere.
const bad: JsonSchema = { type: 'object', properties: { x: { $ref: '#/definitions/missing' } } };

/** A compile step over the real validator that counts how often it ran. */
function counted(validator = new ArgumentValidator()) {
  const compile = (schema: JsonSchema) => {
    compile.calls++;
    return validator.check(schema);
  };
  compile.calls = 0;
  return compile;
}

describe('the schema check cache', () => {
  it('compiles a schema once across starts; a failing one each start, with its reason', () => {
    const file = cacheFile();
    const first = new SchemaCheckCache(file, validatorId);
    const compile = counted();
    expect(first.check(good, compile)).toBeNull();
    expect(first.check(bad, compile)).toMatch(/missing/);
    expect(compile.calls).toBe(2);
    first.flush();

    const next = new SchemaCheckCache(file, validatorId);
    const again = counted();
    // The same schema as a new object, keys in another order: the same schema.
    expect(
      next.check({ required: ['region'], properties: good.properties, type: 'object' }, again),
    ).toBeNull();
    expect(next.check(bad, again)).toMatch(/missing/);
    expect(again.calls).toBe(1);
    // Another schema is compiled.
    expect(next.check({ type: 'object', properties: { y: { type: 'number' } } }, again)).toBeNull();
    expect(again.calls).toBe(2);
  });

  it('ignores a file of another validator, a damaged or foreign file, and entries that are not hashes', () => {
    const file = cacheFile();
    const first = new SchemaCheckCache(file, () => 'ajv@0.0.1/options-0');
    first.check(good, counted());
    first.flush();
    const compile = counted();
    new SchemaCheckCache(file, validatorId).check(good, compile);
    expect(compile.calls).toBe(1);

    for (const text of [
      '',
      '{',
      'null',
      '[]',
      '{"validator":5}',
      `{"validator":"${validatorId()}","compiled":"x"}`,
    ]) {
      fs.writeFileSync(file, text);
      const c = counted();
      expect(new SchemaCheckCache(file, validatorId).check(good, c)).toBeNull();
      expect(c.calls).toBe(1);
    }
    fs.writeFileSync(file, JSON.stringify({ validator: validatorId(), compiled: ['../../x', 5, null] }));
    const c = counted();
    new SchemaCheckCache(file, validatorId).check(good, c);
    expect(c.calls).toBe(1);
  });

  it('a forged entry only postpones the check: the first call compiles and refuses with the reason', () => {
    const file = cacheFile();
    // Learn the key the cache gives the bad schema by letting a "compile" pass it once.
    const forger = new SchemaCheckCache(file, validatorId);
    forger.check(bad, () => null);
    forger.flush();

    const validator = new ArgumentValidator();
    const cache = new SchemaCheckCache(file, validatorId);
    const registry = new ToolRegistry(lintTool, {
      checkSchema: (schema) => cache.check(schema, (s) => validator.check(s)),
    });
    registry.register({
      name: 'script_forged_tool',
      description: 'Reads the forged notes of one folder and returns their titles.',
      parameters: bad,
      flags: { alwaysAllow: false, concurrent: false, background: false, systemUse: false },
      timeoutMs: 60_000,
      source: { kind: 'mcp', server: 'forged' },
      execute: async () => ({ text: 'ran' }),
    } as never);
    const tool = registry.get('script_forged_tool');
    expect(tool).toBeDefined();
    const result = validator.validate('script_forged_tool', tool!.spec.parameters, { x: 1 });
    expect(result).toMatchObject({ ok: false });
    expect(result.ok === false && result.message).toMatch(/invalid parameter schema.*missing/);
  });

  it('writes nothing when nothing new compiled, and never leaves a temporary file', () => {
    const file = cacheFile();
    const cache = new SchemaCheckCache(file, validatorId);
    cache.flush();
    expect(fs.existsSync(file)).toBe(false);
    cache.check(good, counted());
    cache.flush();
    expect(fs.readdirSync(path.dirname(file))).toEqual(['schema-checks.json']);
  });

  it('checks as before when the file cannot be written (a file stands where its folder should be)', () => {
    const file = cacheFile();
    fs.mkdirSync(path.dirname(path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.dirname(file), 'not a folder');
    const cache = new SchemaCheckCache(file, validatorId);
    const compile = counted();
    expect(cache.check(good, compile)).toBeNull();
    expect(() => cache.flush()).not.toThrow();
    expect(cache.check(bad, compile)).toMatch(/missing/);
    expect(fs.readFileSync(path.dirname(file), 'utf8')).toBe('not a folder');
  });
});
