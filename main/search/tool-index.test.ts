import { describe, expect, it } from 'vitest';
import type { IndexedTool } from './tool-index';
import { ToolIndex } from './tool-index';

const tool = (name: string, description: string, parameters?: Record<string, unknown>): IndexedTool => ({
  name,
  description,
  ...(parameters ? { parameters } : {}),
});

const CATALOGUE: IndexedTool[] = [
  tool(
    'mcp__github__create_issue',
    'Open a new issue in a repository.\nUse to report a bug; update_issue for edits.',
  ),
  tool('mcp__github__list_issues', 'List issues of a repository by state.\nUse to browse the backlog.'),
  tool('mcp__gitlab__create_issue', 'Open a new issue in a project.\nUse to report a bug.'),
  tool('mcp__files__read_file', 'Read the contents of a file.\nUse to look at one file.'),
  tool('mcp__files__write_file', 'Write text to a file, replacing it.\nUse to save output.'),
  tool('mcp__files__delete_file', 'Delete a file from disk.\nUse to clean up.'),
  tool(
    'mcp__web__get_url',
    'Download a web page by its URL and return its text.\nUse to read online content.',
  ),
  tool('mcp__weather__get_forecast', 'Forecast for a city for the next days.\nUse for weather questions.'),
  tool('script_resize_image', 'Resize an image to a width and height.\nUse to make thumbnails.'),
];

function indexOf(tools: readonly IndexedTool[]): ToolIndex {
  const index = new ToolIndex();
  for (const entry of tools) index.upsert(entry);
  return index;
}

const names = (index: ToolIndex, query: string, limit = 5): string[] =>
  index.search(query, limit).map((hit) => hit.name);

describe('ToolIndex ranking', () => {
  const index = indexOf(CATALOGUE);

  it('finds a tool from its keywords and ranks the named server first', () => {
    expect(names(index, 'github create issue')[0]).toBe('mcp__github__create_issue');
    expect(names(index, 'gitlab create issue')[0]).toBe('mcp__gitlab__create_issue');
  });

  it('matches other word forms through stemming', () => {
    expect(names(index, 'creating issues', 2)).toEqual([
      'mcp__github__create_issue',
      'mcp__gitlab__create_issue',
    ]);
  });

  it('finds paraphrases that share no word with the tool through WordNet', () => {
    expect(names(index, 'remove a file')[0]).toBe('mcp__files__delete_file');
    expect(names(index, 'fetch webpage')[0]).toBe('mcp__web__get_url');
    expect(names(index, 'enlarge a picture')[0]).toBe('script_resize_image');
  });

  it('does not drop a tool because one query word matches nothing', () => {
    expect(names(index, 'create issue zorblax quuxification')).toContain('mcp__github__create_issue');
  });

  it('falls back to near spellings for words that match nothing', () => {
    expect(names(index, 'delte fiel')[0]).toBe('mcp__files__delete_file');
    expect(names(index, 'resise imgae')[0]).toBe('script_resize_image');
  });

  it('returns scores above zero, best first, ties broken by name', () => {
    const hits = index.search('issue', 10);
    expect(hits.length).toBeGreaterThanOrEqual(3);
    for (const [i, hit] of hits.entries()) {
      expect(hit.score).toBeGreaterThan(0);
      const next = hits[i + 1];
      if (next)
        expect(hit.score > next.score || (hit.score === next.score && hit.name < next.name)).toBe(true);
    }
    const twins = indexOf([tool('mcp__b__copy_text', 'Copy text.'), tool('mcp__a__copy_text', 'Copy text.')]);
    expect(names(twins, 'copy text')).toEqual(['mcp__a__copy_text', 'mcp__b__copy_text']);
  });

  it("weights the server name below the tool's own words", () => {
    const tools = indexOf([
      tool('mcp__github__list_issues', 'List issues of a repository.'),
      tool('mcp__sync__github_mirror', 'Mirror a repository.'),
    ]);
    expect(names(tools, 'github')).toEqual(['mcp__sync__github_mirror', 'mcp__github__list_issues']);
  });

  it('indexes parameters, below the name and description', () => {
    const tools = indexOf([
      tool('mcp__a__send_message', 'Send a message to a channel.', {
        type: 'object',
        properties: { channel: { type: 'string', description: 'Channel id, e.g. C0123' } },
      }),
      tool('mcp__a__list_channels', 'List channels of the workspace.'),
      tool('mcp__a__post_note', 'Post a note.', {
        type: 'object',
        properties: { workspace_slug: { type: 'string', description: 'Which workspace' } },
      }),
    ]);
    expect(names(tools, 'workspace')).toEqual(['mcp__a__list_channels', 'mcp__a__post_note']);
  });

  it('puts a tool first when the query is its exact name', () => {
    expect(names(index, 'mcp__gitlab__create_issue')[0]).toBe('mcp__gitlab__create_issue');
  });

  it('returns [] for empty or stopword-only queries and never throws on odd input', () => {
    expect(index.search('', 5)).toEqual([]);
    expect(index.search('   ', 5)).toEqual([]);
    expect(index.search('the of and', 5)).toEqual([]);
    expect(index.search('issue', 0)).toEqual([]);
    expect(index.search('issue', Number.NaN)).toEqual([]);
    expect(index.search('issue', -3)).toEqual([]);
    expect(index.search('issue', 2.7)).toHaveLength(2);
    expect(index.search('issue', Number.POSITIVE_INFINITY).length).toBeGreaterThan(0);
    expect(() => index.search('🙂 東京 \u0000 '.repeat(2000), 5)).not.toThrow();
    expect(() => index.search(undefined as unknown as string, 5)).not.toThrow();
    expect(new ToolIndex().search('issue', 5)).toEqual([]);
  });
});

describe('ToolIndex updates', () => {
  it('adds, replaces and removes tools incrementally', () => {
    const index = indexOf(CATALOGUE);
    expect(index.size).toBe(CATALOGUE.length);

    index.upsert(tool('mcp__zeta__alpha_omega', 'Schedule a meeting on the calendar.'));
    expect(index.size).toBe(CATALOGUE.length + 1);
    expect(names(index, 'schedule meeting')[0]).toBe('mcp__zeta__alpha_omega');

    // Replacing by name drops the old words and indexes the new ones.
    index.upsert(tool('mcp__zeta__alpha_omega', 'Rotate the encryption keys.'));
    expect(index.size).toBe(CATALOGUE.length + 1);
    expect(names(index, 'schedule meeting')).not.toContain('mcp__zeta__alpha_omega');
    expect(names(index, 'rotate encryption keys')[0]).toBe('mcp__zeta__alpha_omega');

    index.remove('mcp__zeta__alpha_omega');
    index.remove('mcp__not__there');
    expect(index.size).toBe(CATALOGUE.length);
    expect(names(index, 'rotate encryption keys')).toEqual([]);
    expect(names(index, 'encrpytion')).toEqual([]);

    // A freed slot is reused without leaking the previous tool's postings.
    index.upsert(tool('mcp__notes__append_note', 'Append a line to a note.'));
    expect(names(index, 'append note')[0]).toBe('mcp__notes__append_note');
    expect(names(index, 'rotate encryption keys')).toEqual([]);
  });

  it('gives the same ranking whatever the order of upserts and removals', () => {
    const forward = indexOf(CATALOGUE);
    const shuffled = indexOf([...CATALOGUE].reverse());
    shuffled.upsert(tool('mcp__tmp__create_issue', 'Temporary issue tool.'));
    shuffled.remove('mcp__tmp__create_issue');
    for (const query of ['create issue', 'remove a file', 'weather', 'read file']) {
      expect(shuffled.search(query, 5)).toEqual(forward.search(query, 5));
    }
  });

  it('tolerates tools with missing or odd fields', () => {
    const index = new ToolIndex();
    expect(() => {
      index.upsert({ name: 'mcp__odd__thing', description: undefined as unknown as string });
      index.upsert({ name: 'script_blank', description: '', parameters: { properties: 'not an object' } });
      index.upsert({ name: '___', description: '!!!' });
    }).not.toThrow();
    expect(index.size).toBe(3);
    expect(names(index, 'thing')).toEqual(['mcp__odd__thing']);
  });
});
