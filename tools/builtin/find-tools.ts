// find_tools: search or list the tool catalogue; search results' schemas are loaded into the chat (docs/tools.md, "Tool discovery").
import type { ToolCatalogPort, ToolContext } from '../sdk/types';
import { defineTool, ToolError } from '../sdk/types';

const DEFAULT_LIMIT = 8;
// Several phrasings of one need are fused into one ranking; more than this are not searched.
const MAX_PHRASINGS = 5;

/** The find_tools built-in. */
export const findToolsTool = defineTool({
  name: 'find_tools',
  description:
    'Search the tool catalogue by intent and load the schemas of the matching tools into this chat.\n' +
    'Use when you need a tool that is not loaded yet; use mode=list to browse names instead.',
  parameters: {
    type: 'object',
    properties: {
      mode: {
        type: 'string',
        enum: ['search', 'list'],
        default: 'search',
        description:
          'search: ranked matches for query, with full schemas, loaded into this chat; list: every tool name and description.',
      },
      query: {
        type: 'string',
        default: '',
        description:
          'What you want to do in plain words, e.g. "open a github issue"; or "select:name_a,name_b" to load exact tool names. Used by mode=search.',
      },
      queries: {
        type: 'array',
        items: { type: 'string' },
        maxItems: MAX_PHRASINGS,
        default: [],
        description:
          'Other phrasings of the same need, ranked together with query as one list, e.g. ["file a bug", "report a problem"]. Each match says why it matched; a match missing your key words is weak.',
      },
      system: {
        type: 'boolean',
        default: false,
        description: 'With mode=list, also list internal system tools (hidden by default).',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: 50,
        default: DEFAULT_LIMIT,
        description: 'Most results to return for mode=search, 1 to 50, e.g. 8.',
      },
    },
    additionalProperties: false,
  },
  flags: { alwaysAllow: true, systemUse: true },
  handler: async (args, ctx) => {
    const catalog = requireCatalog(ctx);
    const mode = args.mode ?? 'search';
    if (mode === 'list') {
      const tools = catalog.list({ system: args.system === true });
      return {
        content: [
          { type: 'text', text: tools.map((t) => `${t.name}: ${t.description.split('\n')[0]}`).join('\n') },
        ],
        data: tools,
      };
    }
    if (mode !== 'search') throw new ToolError('invalid_arguments', '`mode` must be "search" or "list"');
    const query = typeof args.query === 'string' ? args.query.trim() : '';
    const others = Array.isArray(args.queries)
      ? args.queries.filter((q): q is string => typeof q === 'string' && q.trim() !== '').map((q) => q.trim())
      : [];
    if (query === '' && others.length === 0)
      throw new ToolError('invalid_arguments', '`query` is required with mode=search');
    const limit = typeof args.limit === 'number' ? args.limit : DEFAULT_LIMIT;
    const select = /^select:(.*)$/i.exec(query);
    const phrasings = others.length > 0 ? [query, ...others].filter(Boolean).slice(0, MAX_PHRASINGS) : query;
    // With embeddings configured the ranking also reads meaning; the note says when it could not (docs/search.md).
    const ranked = select
      ? null
      : catalog.searchAsync
        ? await catalog.searchAsync(phrasings, limit, ctx.signal ? { signal: ctx.signal } : {})
        : { hits: catalog.search(phrasings, limit) };
    const found = select
      ? (select[1] ?? '')
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean)
          .flatMap((name) => {
            const tool = catalog.get(name);
            return tool ? [{ ...tool, score: 1 }] : [];
          })
      : (ranked?.hits ?? []);
    const loaded = catalog.loadSchemas(
      ctx.chatId,
      found.map((t) => t.name),
    );
    const missing = select
      ? (select[1] ?? '')
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n && !loaded.includes(n))
      : [];
    // A selected name that exists but is broken, or not offered here, is said to be so, with why, never called unknown.
    const reasons = missing.map((name) => ({
      name,
      why: catalog.broken?.(name),
      absent: catalog.unavailable?.(name),
    }));
    const broken = reasons.flatMap(({ name, why }) => (why ? [`${name} (${why})`] : []));
    const unavailable = reasons.flatMap(({ name, why, absent }) =>
      !why && absent ? [`${name} (${absent})`] : [],
    );
    const unknown = reasons.flatMap(({ name, why, absent }) => (why || absent ? [] : [name]));
    const notes =
      (unknown.length > 0 ? ` Unknown names: ${unknown.join(', ')}.` : '') +
      (broken.length > 0 ? ` Broken, so they cannot be used: ${broken.join('; ')}.` : '') +
      (unavailable.length > 0 ? ` Not offered here: ${unavailable.join('; ')}.` : '');
    const note =
      found.length === 0
        ? select
          ? `None of these tools can be loaded.${notes}`
          : `No tool matches "${[query, ...others].filter(Boolean).join('" or "')}". Try other words, or mode=list.`
        : `These schemas are now loaded in this chat; call the tools directly.${notes}`;
    const ranking = ranked?.note ? `\n${ranked.note}` : '';
    return {
      content: [{ type: 'text', text: `${note}${ranking}\n${JSON.stringify(found, null, 1)}` }],
      data: found,
    };
  },
});

function requireCatalog(ctx: ToolContext): ToolCatalogPort {
  if (!ctx.services.catalog)
    throw new ToolError('unavailable', 'the tool catalogue is not available in this host');
  return ctx.services.catalog;
}
