// The tool catalogue as one host (or child chat) offers it: find_tools never shows, loads or selects a tool the host
// cannot run, such as the background tools in `agenvoy chat` (docs/hosts.md, "What each host offers").
import type { ToolCatalogPort } from '../../tools/sdk/types';
import type { ToolRegistry } from '../core/registry';
import type { ToolFilter } from './tool-exposure';

/** Why a tool the host does not offer is missing from find_tools, in words for the model. */
export const NOT_OFFERED = 'not available here: this host cannot run it';

/** `catalog` narrowed to the tools `offered` lets through. */
export function offeredCatalog(
  catalog: ToolCatalogPort,
  registry: ToolRegistry,
  offered: ToolFilter,
): ToolCatalogPort {
  const usable = (name: string): boolean => {
    const tool = registry.get(name);
    return tool !== undefined && offered(tool);
  };
  const searchAsync = catalog.searchAsync?.bind(catalog);
  return {
    search(query, limit) {
      // Ask for as many more as are hidden, so hidden tools never take the places of offered ones.
      const hidden = registry.all().filter((tool) => !offered(tool)).length;
      return catalog
        .search(query, limit + hidden)
        .filter((hit) => usable(hit.name))
        .slice(0, limit);
    },
    ...(searchAsync
      ? {
          async searchAsync(query, limit, options) {
            const hidden = registry.all().filter((tool) => !offered(tool)).length;
            const result = await searchAsync(query, limit + hidden, options);
            return { ...result, hits: result.hits.filter((hit) => usable(hit.name)).slice(0, limit) };
          },
        }
      : {}),
    list: (options) => catalog.list(options).filter((tool) => usable(tool.name)),
    get: (name) => (usable(name) ? catalog.get(name) : undefined),
    loadSchemas: (chatId, names) => catalog.loadSchemas(chatId, names.filter(usable)),
    broken: (name) => catalog.broken?.(name),
    unavailable: (name) => (registry.get(name) !== undefined && !usable(name) ? NOT_OFFERED : undefined),
    secrets: (name) => (usable(name) ? catalog.secrets?.(name) : undefined),
  };
}
