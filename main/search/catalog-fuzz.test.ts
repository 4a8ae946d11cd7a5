// Fuzz suite (fast-check) over what tool sources hand the catalogue, through the real parse and register paths:
// tool.json folders on disk loaded by ScriptToolSource, and MCP tools/list entries read and synced by ServerTools,
// into a registry with the app's linter and schema compiler and a live search index. Whatever comes in: nothing
// throws or hangs, every bad input is named (file, tool, field, step), and the good tool next to it keeps working.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseManifest } from '../adapters/script/tool-manifest';
import { ScriptToolSource } from '../adapters/script/script-tool-source';
import { testContext } from '../adapters/script/script-testing';
import type { ToolListing } from '../adapters/mcp/list-tools';
import { readTool } from '../adapters/mcp/list-tools';
import { ServerTools } from '../adapters/mcp/server-tools';
import { RegistryCatalog } from './catalog';
import { lintTool } from '../core/lint/lint-tool';
import { LoadedSchemas } from '../core/loaded-schemas';
import { AppLogger } from '../core/logger';
import { ProcessGroups } from '../process/process-group';
import { Redactor } from '../core/redactor';
import { ToolRegistry } from '../core/registry';
import { anyJsonText, manifestText, mcpToolItem } from '../core/testing/tool-arbitraries';
import { showEach, toolToJson, unlistableJson } from '../core/tool-json';
import { ArgumentValidator } from '../core/validate';

/** Cases run per property; the total is reported by the last test. */
const RUNS = { manifestsParsed: 1500, folders: 120, mcpLists: 250 } as const;
let casesRun = 0;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-catalog-fuzz-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const GOOD = {
  name: 'word_count',
  description: 'Count the words of a text.\nUse when you need a word count; read_file for the text itself.',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text, e.g. "a b".' } },
    required: ['text'],
  },
};
const GOOD_SCRIPT =
  'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{console.log(JSON.parse(s).text.split(/\\s+/).filter(Boolean).length)})';

// One validator for the suite, as the app has one: its Ajv engines are costly to build.
const validator = new ArgumentValidator();

function appRegistry(): { registry: ToolRegistry; catalog: RegistryCatalog } {
  const registry = new ToolRegistry(lintTool, { checkSchema: (schema) => validator.check(schema) });
  return { registry, catalog: new RegistryCatalog(registry, new LoadedSchemas()) };
}

// What `tools list --json` and the Tools panel do with every tool: it must never throw, and stay one JSON array.
function listAll(registry: ToolRegistry): string {
  const listed = showEach(registry, registry.listed(), toolToJson, unlistableJson);
  const text = JSON.stringify(listed);
  expect(Array.isArray(JSON.parse(text))).toBe(true);
  return text;
}

describe('catalogue fuzz (fast-check)', () => {
  it(`parses any tool.json text into a manifest or a reason naming the field (${RUNS.manifestsParsed} cases)`, () => {
    const { registry } = appRegistry();
    fc.assert(
      fc.property(fc.oneof(manifestText, anyJsonText), (text) => {
        casesRun++;
        const parsed = parseManifest(text);
        if (!parsed.ok) {
          expect(parsed.reason).toMatch(/^(malformed JSON: |tool\.json must hold|")/);
          expect(parsed.reason.length).toBeLessThan(600);
          return;
        }
        for (const warning of parsed.warnings)
          expect(warning).toMatch(/^tool\.json: unknown key ".*" is ignored \(/s);
        const { manifest } = parsed;
        registry.register({
          name: `script_${manifest.name}`,
          description: manifest.description,
          parameters: manifest.parameters,
          source: {
            kind: 'script',
            dir: `/fuzz/${manifest.name}`,
            scope: 'global',
            trusted: true,
            writable: [],
          },
          flags: {
            alwaysAllow: false,
            concurrent: manifest.concurrent,
            background: false,
            systemUse: false,
          },
          timeoutMs: manifest.timeoutMs,
          handler: () => '',
        });
        const entry = registry.entry(`script_${manifest.name}`);
        if (entry?.broken) expect(entry.broken.reason.length).toBeGreaterThan(5);
      }),
      { seed: 4242, numRuns: RUNS.manifestsParsed },
    );
    listAll(registry);
  });

  it(
    `loads tool folders of any tool.json next to a good one (${RUNS.folders} scans)`,
    { timeout: 120_000 },
    async () => {
      const scan = path.join(tmp, 'scripts');
      const goodDir = path.join(scan, 'a_good');
      fs.mkdirSync(goodDir, { recursive: true });
      fs.writeFileSync(path.join(goodDir, 'tool.json'), JSON.stringify(GOOD));
      fs.writeFileSync(path.join(goodDir, 'script.js'), GOOD_SCRIPT);
      const { registry, catalog } = appRegistry();
      const groups = new ProcessGroups();
      const lines: string[] = [];
      const source = new ScriptToolSource({
        registry,
        dirs: [{ dir: scan, scope: 'global' }],
        log: new AppLogger(null, new Redactor(), {}, (line) => lines.push(line)),
        groups,
        watch: false,
        homeDir: tmp,
        agenvoyHome: path.join(tmp, 'agenvoy-home'),
      });
      await source.start();
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(manifestText, { minLength: 1, maxLength: 3 }), async (texts) => {
          casesRun++;
          run++;
          lines.length = 0;
          for (const entry of fs.readdirSync(scan)) {
            if (entry !== 'a_good') fs.rmSync(path.join(scan, entry), { recursive: true, force: true });
          }
          const dirs = texts.map((text, i) => {
            const dir = path.join(scan, `b_${run}_${i}`);
            fs.mkdirSync(dir);
            fs.writeFileSync(path.join(dir, 'tool.json'), text);
            fs.writeFileSync(path.join(dir, 'script.js'), 'process.stdout.write("x")');
            return dir;
          });
          const started = Date.now();
          await source.rescan();
          expect(Date.now() - started).toBeLessThan(20_000);
          // The good tool is there, usable and found by search, whatever its neighbours hold.
          expect(registry.get('script_word_count')?.broken).toBeUndefined();
          expect(catalog.search('count words text', 3).map((h) => h.name)).toContain('script_word_count');
          // Each bad folder is a problem naming its file, or a tool (usable or broken with its step and reason).
          const problems = source.problems();
          for (const dir of dirs) {
            const problem = problems.find((p) => p.dir === dir);
            const tool = registry
              .listed()
              .find((t) => t.spec.source.kind === 'script' && t.spec.source.dir === dir);
            expect(Boolean(problem) || Boolean(tool), `${dir} is neither loaded nor reported`).toBe(true);
            if (problem) {
              expect(problem.file.startsWith(dir)).toBe(true);
              expect(problem.reason.length).toBeGreaterThan(5);
              expect(problem.reason.length).toBeLessThan(600);
            }
            if (tool?.broken) expect(tool.broken.reason.length).toBeGreaterThan(5);
          }
          listAll(registry);
        }),
        { seed: 4243, numRuns: RUNS.folders },
      );
      // After all that, the good tool still runs for real.
      const good = registry.get('script_word_count');
      const { ctx } = testContext({ workspace: tmp });
      expect(await good?.spec.handler({ text: 'one two three' }, ctx)).toBe('3');
      source.stop();
      await groups.killAll();
    },
  );

  it(`registers any MCP tools/list next to a good tool (${RUNS.mcpLists} lists)`, () => {
    const goodTool = {
      name: 'echo_text',
      description:
        'Echo a text back unchanged.\nUse when testing the connection; use other tools for real work.',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', description: 'Text, e.g. "hi"' } },
      },
    };
    fc.assert(
      fc.property(fc.array(mcpToolItem, { maxLength: 6 }), (items) => {
        casesRun++;
        const { registry, catalog } = appRegistry();
        const tools = new ServerTools(registry, {
          server: 'fz',
          timeoutMs: 1000,
          trust: { kind: 'none' },
          client: () => {
            throw new Error('no client in the fuzz suite');
          },
          lostReason: () => null,
          credentialKeys: [],
        });
        const all = [goodTool, ...items];
        const listing: ToolListing = { tools: [], rejected: [] };
        all.forEach((item, index) => {
          const read = readTool(item, index);
          if ('reason' in read) listing.rejected.push(read);
          else listing.tools.push(read);
        });
        const change = tools.sync(listing);
        expect(registry.get('mcp__fz__echo_text')?.broken).toBeUndefined();
        expect(catalog.search('echo text back', 3).map((h) => h.name)).toContain('mcp__fz__echo_text');
        // Every entry set aside is named: a broken tool with its step, or a refusal saying which item and why.
        for (const rejected of listing.rejected) {
          if (rejected.name === null) {
            expect(change.refused).toContainEqual(
              expect.stringContaining(`tools/list item ${rejected.index} `),
            );
          }
        }
        for (const reason of change.refused)
          expect(reason).toMatch(/^(tool ".*"|tools\/list item \d+) not registered: /s);
        listAll(registry);
        // The same list again changes nothing (no re-registration, so no approval is voided for nothing).
        const again = tools.sync(listing);
        expect([...again.added, ...again.updated, ...again.removed]).toEqual([]);
        // And a list of the good tool alone leaves only it.
        tools.sync({ tools: [readTool(goodTool, 0) as ToolListing['tools'][number]], rejected: [] });
        expect(registry.listed().map((t) => t.spec.name)).toEqual(['mcp__fz__echo_text']);
      }),
      { seed: 4244, numRuns: RUNS.mcpLists },
    );
  });

  it('ran every case', () => {
    // The closing note of the issue quotes this figure.
    expect(casesRun).toBe(RUNS.manifestsParsed + RUNS.folders + RUNS.mcpLists);
    console.info(`catalogue fuzz: ${casesRun} cases`);
  });
});
