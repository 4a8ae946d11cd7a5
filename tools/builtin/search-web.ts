// search_web: a web search through the backend the user configured (SearXNG or Brave).
import { defineTool } from '../sdk/types';
import { integerArg, stringArg } from './web/arguments';
import { searchWith } from './web/search-backends';
import { resolveWebSettings } from '../sdk/web/web-settings';

/** The search_web built-in: read-only, so always allowed and concurrent; 90 s. */
export const searchWebTool = defineTool({
  name: 'search_web',
  description:
    'Search the web and return matching results as title, URL and snippet.\n' +
    'Use to find pages on a topic; use fetch_page to read a result.\n' +
    'Needs a search backend (SearXNG or Brave) configured in settings.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Search terms, e.g. "node 20 AbortSignal.any support".' },
      count: {
        type: 'integer',
        minimum: 1,
        maximum: 20,
        default: 8,
        description: 'How many results to return, 1 to 20, e.g. 5.',
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  flags: { alwaysAllow: true, concurrent: true },
  timeoutMs: 90_000,
  handler: async (args, ctx) => {
    const query = stringArg(args, 'query', true);
    const count = integerArg(args, 'count', 8, 1, 20);
    const settings = resolveWebSettings(ctx.services.web);
    const results = await searchWith(settings.search, query, count, ctx);
    const lines = results.map(
      (r, i) => `${i + 1}. ${r.title || r.url}\n   ${r.url}${r.snippet ? `\n   ${r.snippet}` : ''}`,
    );
    return {
      content: [
        { type: 'text', text: results.length === 0 ? `no results for "${query}"` : lines.join('\n') },
      ],
      data: { backend: settings.search.backend, results },
    };
  },
});
