import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { actionAgreement, queryAction, toolAction } from './actions';
import { domainLexicon } from './domain-lexicon';
import { translateScript, translateWord } from './foreign-lexicon';
import type { IndexedTool } from './tool-index';
import { explainHit, ToolIndex } from './tool-index';
import { loadEvalSet } from '../../bench/find-tools-eval-bench';
import { recallAt } from '../../bench/retrieval-bench';

// The evaluation catalogue: 560 tools as twelve public MCP servers define them (bench/data/tool-catalog).
const CATALOGUE = (
  JSON.parse(
    readFileSync(new URL('../../bench/data/tool-catalog/catalog.json', import.meta.url), 'utf8'),
  ) as Array<IndexedTool & { source: string }>
).map(({ name, description, parameters }) => ({ name, description, parameters }));

function indexOf(
  tools: readonly IndexedTool[],
  options: ConstructorParameters<typeof ToolIndex>[0] = {},
): ToolIndex {
  const index = new ToolIndex(options);
  for (const entry of tools) index.upsert(entry);
  return index;
}

const first = (index: ToolIndex, query: string): string | undefined => index.search(query, 5)[0]?.name;

describe('ToolIndex: intent, paraphrase and other languages', () => {
  const index = indexOf(CATALOGUE);

  it('reads everyday words through the domain lexicon (folder → directory, ticket → issue)', () => {
    expect(first(index, 'make a folder')).toBe('mcp__filesystem__create_directory');
    expect(first(index, 'create a jira issue')).toBe('mcp__atlassian__jira_create_issue');
  });

  it('lets an idiom stand for the tool words and drops its own words ("get rid of" is no "get")', () => {
    expect(first(index, 'get rid of a jira ticket')).toBe('mcp__atlassian__jira_delete_issue');
  });

  it('the reranker does better than BM25F alone on the tune half of the evaluation set', () => {
    const { queries } = loadEvalSet();
    const tune = queries.filter((query) => query.split === 'tune');
    const recall = (ranked: ToolIndex): number =>
      recallAt((query, limit) => ranked.search(query, limit).map((hit) => hit.name), tune, 1);
    expect(recall(index)).toBeGreaterThan(recall(indexOf(CATALOGUE, { rerank: false })) + 0.02);
  });

  it('translates German, French, Spanish and Chinese requests through the built-in lexicon', () => {
    expect(first(index, 'verzeichnis erstellen')).toBe('mcp__filesystem__create_directory');
    expect(first(index, 'crear carpeta')).toBe('mcp__filesystem__create_directory');
    expect(first(index, 'bildschirmfoto der seite machen')).toBe('mcp__playwright__browser_take_screenshot');
    expect(first(index, 'lire un fichier')).toMatch(/^mcp__filesystem__read_/);
    expect(first(index, '读取文件')).toMatch(/^mcp__filesystem__read_/);
  });

  it('says for each hit which query words matched which tool words in which fields', () => {
    const [hit] = index.search('make a folder', 1);
    expect(hit?.matches).toEqual([
      { query: 'make', tool: 'create', fields: ['name', 'description'], weight: 0.7 },
      { query: 'folder', tool: 'directory', fields: ['name', 'description'], weight: 0.9 },
    ]);
    expect(explainHit(hit!)).toBe('make→create (name, description); folder→directory (name, description)');
    // A translated word is shown as typed, with the English word it matched.
    expect(index.search('verzeichnis erstellen', 1)[0]?.matches.map((m) => `${m.query}→${m.tool}`)).toEqual([
      'verzeichnis→directory',
      'erstellen→create',
    ]);
  });

  it('lists the query words a hit did not match, so a weak match shows as one', () => {
    // "sprint" is a catalogue word (Jira's), just not this tool's; "zorblax" is nobody's.
    expect(index.search('create directory sprint', 1)[0]?.unmatched).toEqual(['sprint']);
    const [weak] = index.search('create directory zorblax', 1);
    expect(weak?.unmatched).toEqual(['zorblax']);
    expect(explainHit(weak!)).toContain('not matched: zorblax');
  });

  it('fuses several phrasings: a tool several of them find ranks first', () => {
    const hits = index.searchMany(
      ['get rid of a jira ticket', 'delete jira issue', 'remove an issue in jira'],
      3,
    );
    expect(hits[0]?.name).toBe('mcp__atlassian__jira_delete_issue');
    expect(new Set(hits.map((h) => h.name)).size).toBe(3);
    // One phrasing (empty ones dropped) is a plain search.
    expect(index.searchMany(['make a folder', '  '], 2)).toEqual(index.search('make a folder', 2));
  });
});

describe('lexicons and actions', () => {
  it('domain lexicon relates words both ways and expands phrases', () => {
    const lexicon = domainLexicon();
    expect(lexicon.related('ticket')).toContainEqual({ word: 'issue', strict: true });
    expect(lexicon.related('issue')).toContainEqual({ word: 'ticket', strict: true });
    expect(lexicon.related('issue')).toContainEqual({ word: 'bug', strict: false });
    expect(lexicon.related('zorblax')).toEqual([]);
    expect(lexicon.phrases('Who am I logged in as?').words).toContain('authenticated');
    expect([...lexicon.phrases('Am I logged in?').replaced]).toEqual(['logged', 'in']);
    expect(lexicon.phrases('open a pull request').replaced.size).toBe(0);
    expect(lexicon.phrases('a logged-out user').words).toEqual([]);
  });

  it('foreign lexicon maps words, and finds Chinese and Japanese words inside a sentence', () => {
    expect(translateWord('löschen')).toContain('delete');
    expect(translateWord('erstellen')).toContain('create');
    expect(translateWord('create')).toEqual([]);
    expect(translateScript('创建拉取请求').map((t) => t.word)).toEqual(
      expect.arrayContaining(['create', 'pull', 'request']),
    );
    expect(translateScript('ファイルを検索')).toEqual(
      expect.arrayContaining([
        { word: 'file', typed: 'ファイル' },
        { word: 'search', typed: '検索' },
      ]),
    );
    expect(translateScript('plain english')).toEqual([]);
  });

  it('reads actions from tool names and the start of queries', () => {
    expect(toolAction(['pods', 'list'])).toBe('list');
    expect(toolAction(['remove', 'issue', 'link'])).toBe('delete');
    expect(queryAction(['remove', 'jira', 'ticket'])).toBe('delete');
    expect(queryAction(['jira', 'ticket', 'status', 'remove'])).toBeUndefined();
    expect(actionAgreement('delete', 'delete')).toBe(1);
    expect(actionAgreement('delete', 'create')).toBe(-1);
    expect(actionAgreement('read', 'list')).toBe(0);
    expect(actionAgreement(undefined, 'list')).toBe(0);
  });
});
