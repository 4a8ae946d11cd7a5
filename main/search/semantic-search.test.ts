// find_tools with embeddings, end to end over real parts: a core from createCore (the real registry, built-ins and
// catalogue), settings.json naming an embedding model, the real HTTP client, the real SQLite cache, and a local server
// speaking OpenAI's /embeddings whose vectors relate words that share no letters (the stand-in for a model). The
// hybrid ranking finds what the lexical one misses; vectors are computed once per definition and model; a slow, down
// or hostile server leaves a lexical ranking and a note; the key never leaks; nothing is sent when nothing is set.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ToolSearchHit, ToolSpec } from '../../tools/sdk/types';
import { defineTool } from '../../tools/sdk/types';
import { findToolsTool } from '../../tools/builtin/find-tools';
import type { Core } from '../app';
import { createCore } from '../app';
import type { EmbeddingPorts } from '../app-embeddings';
import { configuredEmbeddingPorts } from '../app-embeddings';
import { policyGate } from '../core/gate-port';
import { agenvoyPaths } from '../core/paths';
import type { EmbeddingServer } from '../agent/embeddings/testing/embedding-server';
import { startEmbeddingServer } from '../agent/embeddings/testing/embedding-server';
import { openToolVectorCache, vectorCachePath } from '../store/tool-vector-cache';
import { runCli } from '../cli/testing/cli-harness';
import { offeredCatalog } from '../agent/offered-catalog';
import { HttpEmbeddingModel } from '../agent/embeddings/embedding-client';
import { corruptPages } from '../store/testing/corrupt-pages';
import { SemanticSearch } from './semantic-search';

const CANARY = 'sk-canary-embed-41d9c2e7b05a4f18';
const KEY_NAME = 'CUSTOM_API_KEY';

// The stand-in model's meaning: words that stand for one concept.
const CONCEPTS: Record<string, string> = {
  quench: 'drink',
  thirst: 'drink',
  thirsty: 'drink',
  drink: 'drink',
  beverage: 'drink',
  water: 'drink',
  juice: 'drink',
  hungry: 'food',
  meal: 'food',
  cook: 'food',
  dinner: 'food',
  snatch: 'download',
  download: 'download',
  downloads: 'download',
};

const tool = (name: string, description: string, parameters: string[] = []): ToolSpec =>
  defineTool({
    name,
    description,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(parameters.map((p) => [p, { type: 'string', description: `The ${p}` }])),
    },
    handler: () => 'ok',
  });

const TOOLS = [
  tool('pour_drink', 'Pours a glass of water or juice.\nUse when someone asks for one.', ['glass']),
  tool('cook_dinner', 'Cooks a meal in the kitchen.\nUse for lunch or dinner.', ['recipe']),
  tool('send_message', 'Send a chat message to a channel.\nUse to tell the team something.', [
    'channel',
    'text',
  ]),
  tool('create_directory', 'Create a new directory on disk.\nUse before writing files into it.', ['path']),
];
const QUERY = 'quench my thirst';

let server: EmbeddingServer;
const temps: string[] = [];
const cores: Core[] = [];

beforeAll(async () => {
  server = await startEmbeddingServer({ dimensions: 256, concepts: CONCEPTS, key: CANARY });
});
afterAll(() => server.close());
afterEach(async () => {
  server.mode = 'ok';
  server.delayMs = 0;
  server.failOn = null;
  vi.unstubAllEnvs();
  for (const core of cores.splice(0)) await core.close();
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function home(settings: Record<string, unknown> | null): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-semantic-'));
  temps.push(dir);
  if (settings) {
    fs.mkdirSync(path.join(dir, 'desktop'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'desktop', 'settings.json'), JSON.stringify(settings));
  }
  return dir;
}

const EMBEDDING_SETTINGS = () => ({
  provider: 'custom',
  baseUrl: server.baseUrl,
  model: 'chat-model',
  apiKeyName: KEY_NAME,
  search: { embeddingModel: 'test-embed' },
});

async function core(
  dir: string,
  options: { tools?: ToolSpec[]; tune?: Partial<EmbeddingPorts> } = {},
): Promise<Core> {
  const getSecret = async (key: string) => (key === KEY_NAME ? CANARY : undefined);
  const made = await createCore({
    home: dir,
    workspace: dir,
    gate: policyGate('allow'),
    sandbox: null,
    mcp: 'off',
    getSecret,
    hostTools: options.tools ?? TOOLS,
    embeddings: { ...configuredEmbeddingPorts(agenvoyPaths(dir), getSecret), ...options.tune },
  });
  cores.push(made);
  return made;
}

type Found = { data: ToolSearchHit[]; content: Array<{ text: string }> };
const findTools = (made: Core, args: Record<string, unknown>) =>
  findToolsTool.handler(args, {
    chatId: 'chat',
    signal: new AbortController().signal,
    services: { catalog: made.catalog },
  } as never) as Promise<Found>;

const names = (hits: ToolSearchHit[]) => hits.map((hit) => hit.name);
const appLog = (made: Core) => {
  const file = path.join(made.paths.logs, 'app.log');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
};
const requests = () => server.requests.openai + server.requests.ollama;

describe('find_tools with embeddings', () => {
  it('finds by meaning what the keywords miss, and says why; the exact name still comes first', async () => {
    const made = await core(home(EMBEDDING_SETTINGS()));
    const lexical = names(made.catalog.search(QUERY, 8));
    expect(lexical[0]).not.toBe('pour_drink');
    // The first search starts the tools' embedding and is lexical meanwhile, with a note.
    const first = await made.catalog.searchAsync(QUERY, 8);
    expect(names(first.hits)).toEqual(lexical);
    expect(first.note).toMatch(/^Ranked by keywords only: the tools' embeddings are still being computed/);
    await made.catalog.settleEmbeddings();
    const result = await findTools(made, { query: QUERY });
    expect(result.data[0]?.name).toBe('pour_drink');
    expect(result.data[0]?.why).toMatch(/^semantic match 0\.\d\d$/);
    expect(result.content[0]?.text).not.toMatch(/Ranked by keywords only/);
    // Several phrasings: each is embedded, a tool's similarity is its best.
    const many = await findTools(made, { query: 'so thirsty', queries: ['I am hungry'] });
    expect(names(many.data).slice(0, 2).sort()).toEqual(['cook_dinner', 'pour_drink']);
    // A query that is a tool's name keeps that tool first, whatever the vectors say.
    const exact = await made.catalog.searchAsync('send_message', 5);
    expect(exact.hits[0]?.name).toBe('send_message');
    expect(exact.hits[0]?.why).toContain('send (name');
  });

  it('embeds each definition once: a repeated query, a new process over the same cache and an unchanged tool ask nothing', async () => {
    const dir = home(EMBEDDING_SETTINGS());
    const start = server.texts.length;
    const made = await core(dir);
    await made.catalog.searchAsync(QUERY, 5);
    await made.catalog.settleEmbeddings();
    const embedded = made.registry.all().length;
    expect(server.texts.slice(start).filter((text) => text.startsWith('pour_drink\n'))).toHaveLength(1);
    const before = requests();
    await made.catalog.searchAsync(QUERY, 5);
    expect(requests()).toBe(before + 1);
    // The query's vector is kept: the same query again asks nothing.
    await made.catalog.searchAsync(QUERY, 5);
    expect(requests()).toBe(before + 1);
    const cache = openToolVectorCache(vectorCachePath(agenvoyPaths(dir).desktop));
    expect(cache.size()).toBe(embedded);
    cache.close();
    await made.close();

    // A new process: the tools' vectors come from SQLite, only the query is asked.
    const textsBefore = server.texts.length;
    const again = await core(dir);
    await again.catalog.settleEmbeddings();
    expect(server.texts.length).toBe(textsBefore);
    const result = await again.catalog.searchAsync(QUERY, 5);
    expect(result.hits[0]?.name).toBe('pour_drink');
    expect(server.texts.slice(textsBefore)).toEqual([QUERY]);
  });

  it('a changed definition is embedded again, and only that one', async () => {
    const made = await core(home(EMBEDDING_SETTINGS()));
    await made.catalog.settleEmbeddings();
    const textsBefore = server.texts.length;
    made.registry.register(
      tool('pour_drink', 'Pours a glass of lemonade or juice.\nUse when someone asks for one.', ['glass']),
    );
    await made.catalog.searchAsync('lemonade', 5);
    await made.catalog.settleEmbeddings();
    const asked = server.texts.slice(textsBefore);
    expect(asked.filter((text) => text.includes('lemonade or juice'))).toHaveLength(1);
    expect(asked.filter((text) => text.startsWith('cook_dinner\n'))).toEqual([]);
  });

  it('a slow, failing or hostile server leaves the lexical ranking, with a note, and never the key', async () => {
    const made = await core(home(EMBEDDING_SETTINGS()), {
      tune: { queryTimeoutMs: 300, queryRetryMs: 0, indexRetryMs: 0 },
    });
    await made.catalog.settleEmbeddings();
    const lexical = (query: string) => names(made.catalog.search(query, 8));
    const seen: string[] = [];
    const check = async (query: string, note: RegExp) => {
      const result = await findTools(made, { query });
      seen.push(JSON.stringify(result));
      expect(names(result.data)).toEqual(lexical(query));
      expect(result.content[0]?.text.split('\n')[1]).toMatch(note);
    };
    server.mode = 'slow';
    server.delayMs = 2000;
    const started = Date.now();
    await check('thirsty for water', /^Ranked by keywords only: test-embed at .*: no answer within 0\.3 s/);
    expect(Date.now() - started).toBeLessThan(1500);
    server.mode = 'error';
    server.delayMs = 0;
    await check('a cold beverage', /^Ranked by keywords only: .*HTTP 500: the model crashed/);
    server.mode = 'echo-key';
    await check('juice please', /refused the API key CUSTOM_API_KEY.*\[redacted:CUSTOM_API_KEY\]/);
    server.mode = 'fewer';
    await check('some water', /asked for 1 vectors, got 0/);
    server.mode = 'huge';
    await check('more water', /larger than 1 vectors can be/);
    // A server that changes its vectors' length now runs another model: the old vectors are dropped and redone.
    server.mode = 'resized';
    await check('thirst again', /answers vectors of 263 numbers where the tools' have 256/);
    server.mode = 'ok';
    await made.catalog.settleEmbeddings();
    expect((await made.catalog.searchAsync(QUERY, 3)).hits[0]?.name).toBe('pour_drink');
    for (const text of [...seen, appLog(made)]) expect(text).not.toContain(CANARY);
    expect(appLog(made)).toContain('embedding a find_tools query failed');
    const db = fs.readFileSync(vectorCachePath(made.paths.desktop));
    expect(db.includes(CANARY)).toBe(false);
  });

  it('a server that is down: lexical with a note, and the search does not wait', async () => {
    const gone = await startEmbeddingServer();
    const baseUrl = gone.baseUrl;
    await gone.close();
    const made = await core(home({ ...EMBEDDING_SETTINGS(), baseUrl }));
    const first = await made.catalog.searchAsync(QUERY, 5);
    await made.catalog.settleEmbeddings();
    const second = await made.catalog.searchAsync(QUERY, 5);
    expect(names(second.hits)).toEqual(names(made.catalog.search(QUERY, 5)));
    expect(first.note).toMatch(/still being computed/);
    expect(second.note).toMatch(
      /embedding the tools with test-embed at .* failed \(.*cannot reach .*ECONNREFUSED/,
    );
  });

  it('not configured: no request at all, no note; Anthropic as the provider: a note, no request', async () => {
    const before = requests();
    for (const settings of [null, { provider: 'custom', baseUrl: server.baseUrl, model: 'm' }]) {
      const made = await core(home(settings));
      await made.catalog.settleEmbeddings();
      const result = await findTools(made, { query: QUERY });
      expect(names(result.data)).toEqual(names(made.catalog.search(QUERY, 8)));
      expect(result.content[0]?.text).not.toMatch(/Ranked by/);
    }
    const anthropic = await core(home({ provider: 'anthropic', search: { embeddingModel: 'x' } }));
    const result = await anthropic.catalog.searchAsync(QUERY, 5);
    expect(result.note).toMatch(/Ranked by keywords only: the provider Anthropic has no embeddings API/);
    expect(requests()).toBe(before);
    // And no cache file was made.
    expect(fs.existsSync(vectorCachePath(anthropic.paths.desktop))).toBe(false);
  });

  it('agenvoy tools search: waits for the tools to be embedded, ranks by both, and a second run asks only the query', async () => {
    const dir = home(EMBEDDING_SETTINGS());
    const place = { home: dir, cwd: dir };
    // The core's secret store reads the process's environment last (docs/secrets.md, "Lookup order").
    vi.stubEnv(KEY_NAME, CANARY);
    const query = ['tools', 'search', '--json', '--limit', '3', 'snatch', 'it'];
    const first = await runCli(query, place);
    expect(first.code).toBe(0);
    const hits = JSON.parse(first.stdout) as Array<{ name: string; why: string }>;
    expect(hits[0]?.name).toBe('download_file');
    expect(hits[0]?.why).toMatch(/semantic match 0\.\d\d/);
    const textsBefore = server.texts.length;
    const second = await runCli(query, place);
    expect(second.stdout).toBe(first.stdout);
    expect(server.texts.slice(textsBefore)).toEqual(['snatch it']);
    for (const text of [first.stdout, first.stderr, second.stdout, second.stderr])
      expect(text).not.toContain(CANARY);
  });

  it("a chat host's narrowed catalogue keeps the hybrid ranking and hides what it does not offer", async () => {
    const made = await core(home(EMBEDDING_SETTINGS()));
    await made.catalog.settleEmbeddings();
    const all = offeredCatalog(made.catalog, made.registry, () => true);
    expect((await all.searchAsync?.(QUERY, 3))?.hits[0]?.name).toBe('pour_drink');
    const narrowed = offeredCatalog(made.catalog, made.registry, (t) => t.spec.name !== 'pour_drink');
    const result = await narrowed.searchAsync?.(QUERY, 3);
    expect(result?.hits.map((hit) => hit.name)).not.toContain('pour_drink');
    expect(result?.hits).toHaveLength(3);
  });
});

describe('bounds: a hostile server, a damaged cache, tool churn', () => {
  const getSecret = async (key: string) => (key === KEY_NAME ? CANARY : undefined);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('a 260 KB error from the server reaches the notes and the log cut short', async () => {
    const made = await core(home(EMBEDDING_SETTINGS()), { tune: { queryRetryMs: 0, indexRetryMs: 0 } });
    server.mode = 'huge-error';
    const notes: string[] = [];
    await made.catalog.searchAsync(QUERY, 5);
    await made.catalog.settleEmbeddings();
    // The tools' pass failed: its error is kept in every note until one succeeds.
    notes.push((await findTools(made, { query: QUERY })).content[0]?.text ?? '');
    expect(notes.at(-1)).toMatch(/embedding the tools with test-embed at .* failed \(.*HTTP 500: e+/);
    server.mode = 'ok';
    await made.catalog.settleEmbeddings();
    server.mode = 'huge-error';
    // The query's embedding failed: its error is the note, and kept for the retry wait.
    notes.push((await findTools(made, { query: 'thirsty for water' })).content[0]?.text ?? '');
    expect(notes.at(-1)).toMatch(/Ranked by keywords only: test-embed at .*: HTTP 500: e+/);
    for (const note of notes) expect(note.split('\n')[1]?.length).toBeLessThan(700);
    expect(appLog(made).length).toBeLessThan(4000);
    for (const text of [...notes, appLog(made)]) expect(text).not.toContain(CANARY.slice(0, 10));
  });

  it('a user name and password in the base URL appear in no note, log line or cache row', async () => {
    const USER = 'canaryuser5k';
    const PASSWORD = 'canarypass8m';
    const secrets = [USER, PASSWORD, Buffer.from(`${USER}:${PASSWORD}`).toString('base64')];
    const withCredentials = (url: string) => url.replace('http://', `http://${USER}:${PASSWORD}@`);
    // A server behind a proxy that takes the URL's user and password: no key of its own.
    const open = await startEmbeddingServer({ dimensions: 64, concepts: CONCEPTS });
    const gone = await startEmbeddingServer();
    const goneUrl = gone.baseUrl;
    await gone.close();
    try {
      const settings = (baseUrl: string) => ({ ...EMBEDDING_SETTINGS(), baseUrl, apiKeyName: null });
      const made = await core(home(settings(withCredentials(open.baseUrl))), {
        tune: { queryRetryMs: 0, indexRetryMs: 0 },
      });
      const seen: string[] = [];
      await made.catalog.settleEmbeddings();
      expect(open.authorizations.at(-1)).toBe(`Basic ${secrets[2]}`);
      expect((await made.catalog.searchAsync(QUERY, 3)).hits[0]?.name).toBe('pour_drink');
      for (const mode of ['echo-key', 'huge-error', 'redirect', 'nan', 'error'] as const) {
        open.mode = mode;
        seen.push(JSON.stringify(await findTools(made, { query: `water ${mode}` })));
      }
      const down = await core(home(settings(withCredentials(goneUrl))));
      await down.catalog.searchAsync(QUERY, 3);
      await down.catalog.settleEmbeddings();
      seen.push(JSON.stringify(await findTools(down, { query: QUERY })));
      expect(seen.at(-1)).toMatch(/cannot reach .*ECONNREFUSED/);
      // With an API key as well, the settings are refused in words.
      const both = await core(home({ ...EMBEDDING_SETTINGS(), baseUrl: withCredentials(open.baseUrl) }));
      const refused = await both.catalog.searchAsync(QUERY, 3);
      expect(refused.note).toMatch(/base URL carries a user name and password/);
      seen.push(refused.note ?? '');
      await made.close();
      const db = fs.readFileSync(vectorCachePath(made.paths.desktop), 'latin1');
      expect(db).toContain(`http://${new URL(open.baseUrl).host}/v1/embeddings`);
      for (const text of [...seen, appLog(made), appLog(down), appLog(both), db])
        for (const secret of secrets) expect(text).not.toContain(secret);
    } finally {
      await open.close();
    }
  });

  it('a cache file with damaged pages is set aside, and the tools are embedded again', async () => {
    const dir = home(EMBEDDING_SETTINGS());
    const made = await core(dir);
    await made.catalog.settleEmbeddings();
    await made.close();
    const file = vectorCachePath(agenvoyPaths(dir).desktop);
    corruptPages(file);
    const again = await core(dir);
    await again.catalog.settleEmbeddings();
    const result = await again.catalog.searchAsync(QUERY, 5);
    expect(result.note).toBeUndefined();
    expect(result.hits[0]?.name).toBe('pour_drink');
    expect(fs.existsSync(`${file}.broken`)).toBe(true);
    await again.close();
    // The new file holds them: a third process asks only the query.
    const texts = server.texts.length;
    const third = await core(dir);
    await third.catalog.settleEmbeddings();
    await third.catalog.searchAsync(QUERY, 5);
    expect(server.texts.slice(texts)).toEqual([QUERY]);
  });

  it('a failed pass stops every request of it: nothing more is asked until the retry', async () => {
    const tools = [tool('aaa_fail_me', 'A tool whose batch the server refuses.'), ...TOOLS];
    const model = new HttpEmbeddingModel({
      wire: 'openai',
      baseUrl: server.baseUrl,
      model: 'test-embed',
      keyName: KEY_NAME,
      getKey: async () => CANARY,
      batchSize: 1,
    });
    const made = await core(home(null), {
      tools,
      tune: { source: { current: async () => ({ kind: 'ready', model }) }, openCache: async () => null },
    });
    server.failOn = 'aaa_fail_me';
    server.delayMs = 40;
    const requestsBefore = requests();
    await made.catalog.searchAsync(QUERY, 5);
    await made.catalog.settleEmbeddings();
    const after = requests();
    await sleep(400);
    // The other worker took no batch after the pass failed (the catalogue has dozens of them left).
    expect(requests()).toBe(after);
    expect(made.registry.all().length).toBeGreaterThan(20);
    expect(after).toBeLessThanOrEqual(requestsBefore + 2);
  });

  it('vectors of tools no longer registered are dropped, and the vectors held are bounded', async () => {
    const dir = home(EMBEDDING_SETTINGS());
    const made = await core(dir);
    const { source } = configuredEmbeddingPorts(agenvoyPaths(dir), getSecret);
    const search = new SemanticSearch(made.registry, { source });
    try {
      await search.settle();
      const base = search.held();
      expect(base).toBe(made.registry.all().length);
      // A server renaming its tools at every list change.
      let undo: Array<() => void> = [];
      for (const round of ['a', 'b', 'c']) {
        for (const remove of undo) remove();
        undo = Array.from({ length: 30 }, (_, i) =>
          made.registry.register(tool(`churn_${round}_${i}`, `Churned tool ${i} of round ${round}.`)),
        );
        await search.rank(QUERY, [], { limit: 5 });
        await search.settle();
        expect(search.held()).toBe(base + 30);
      }
    } finally {
      await search.close();
    }
    // At most maxVectorNumbers numbers (tests lower it): the first tools in name order, the rest by keywords.
    const small = new SemanticSearch(made.registry, { source, maxVectorNumbers: 256 * 10 });
    try {
      await small.settle();
      expect(small.held()).toBe(10);
      const result = await small.rank(QUERY, [], { limit: 5 });
      expect(result.note).toMatch(/of \d+ tools are not embedded/);
    } finally {
      await small.close();
    }
  });
});
