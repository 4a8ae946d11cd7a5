// find_tools(mode=search) through the real registry and catalogue: matches say why they matched, and several
// phrasings of one need come back as one ranking.
import { describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../tools/sdk/types';
import { defineTool } from '../../tools/sdk/types';
import { findToolsTool } from '../../tools/builtin/find-tools';
import { RegistryCatalog } from './catalog';
import { lintTool } from '../core/lint/lint-tool';
import { LoadedSchemas } from '../core/loaded-schemas';
import { ToolRegistry } from '../core/registry';
import { ArgumentValidator } from '../core/validate';

const spec = (name: string, description: string): ToolSpec =>
  defineTool({
    name,
    description,
    parameters: { type: 'object', properties: { id: { type: 'string', description: 'Id, e.g. "7"' } } },
    handler: () => 'ok',
  });

const TOOLS = [
  spec(
    'create_directory',
    'Create a new directory on disk.\nUse before writing files into it; write_file for files.',
  ),
  spec(
    'delete_issue',
    'Delete an existing issue of the tracker.\nUse when the user asks to drop one; close_issue to close.',
  ),
  spec(
    'close_issue',
    'Close an issue of the tracker as done.\nUse when work on it ended; delete_issue to remove it.',
  ),
  spec(
    'send_message',
    'Send a chat message to a channel.\nUse to tell the team something; read_channel to read.',
  ),
];

type SearchResult = { data: Array<{ name: string; why?: string }>; content: Array<{ text: string }> };

function catalogue(): { catalog: RegistryCatalog; ctx: never } {
  const validator = new ArgumentValidator();
  const registry = new ToolRegistry(lintTool, { checkSchema: (schema) => validator.check(schema) });
  for (const tool of TOOLS) registry.register(tool);
  const catalog = new RegistryCatalog(registry, new LoadedSchemas());
  return { catalog, ctx: { chatId: 'c', services: { catalog } } as never };
}

describe('find_tools search', () => {
  it('says why each match matched: query word → tool word (fields), and what it missed', async () => {
    const { ctx } = catalogue();
    const result = (await findToolsTool.handler({ query: 'make a folder' }, ctx)) as SearchResult;
    expect(result.data[0]).toMatchObject({
      name: 'create_directory',
      why: 'make→create (name, description); folder→directory (name, description)',
    });
    // The model reads the same in the text it gets.
    expect(result.content[0]?.text).toContain('"why": "make→create (name, description)');
    const weak = (await findToolsTool.handler({ query: 'make a folder for zorblax' }, ctx)) as SearchResult;
    expect(weak.data[0]?.why).toMatch(/not matched: zorblax$/);
  });

  it('takes several phrasings in one call and ranks them as one list', async () => {
    const { ctx } = catalogue();
    const result = (await findToolsTool.handler(
      { query: 'get rid of a ticket', queries: ['remove the issue', 'delete a bug report'], limit: 2 },
      ctx,
    )) as SearchResult;
    expect(result.data.map((t) => t.name)).toEqual(['delete_issue', 'close_issue']);
    // queries alone is enough; blank phrasings are ignored, and no phrasing at all is an error.
    const alone = (await findToolsTool.handler(
      { queries: ['post a chat message', ' '] },
      ctx,
    )) as SearchResult;
    expect(alone.data[0]?.name).toBe('send_message');
    await expect(async () => findToolsTool.handler({ queries: ['  '] }, ctx)).rejects.toThrow(/query/);
  });

  it('keeps the port answer for one phrasing identical to a plain search', () => {
    const { catalog } = catalogue();
    expect(catalog.search(['close the issue'], 3)).toEqual(catalog.search('close the issue', 3));
  });
});
