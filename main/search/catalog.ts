// The registry and its search index behind one port, for find_tools and run_tool (docs/tools.md, "Tool discovery").
import type {
  ToolCatalogPort,
  ToolSchemaView,
  ToolSearchHit,
  ToolSearchResult,
  ToolSummary,
} from '../../tools/sdk/types';
import type { LoadedSchemas } from '../core/loaded-schemas';
import type { RegisteredTool, ToolRegistry } from '../core/registry';
import type { SearchHit } from './tool-index';
import { explainHit, ToolIndex } from './tool-index';
import { toolSchemaView, toolSummary } from '../core/tool-json';
import type { SemanticSearch } from './semantic-search';
import { SEMANTIC_DEPTH } from './semantic-fusion';

/**
 * Keeps a ToolIndex in step with the registry and answers catalogue queries; broken tools are never offered. The index
 * is brought up to date when a query needs it, not as tools register: a command that never searches (tools list)
 * never pays for it (docs/hosts.md, "Fast start").
 */
export class RegistryCatalog implements ToolCatalogPort {
  private readonly unsubscribe: () => void;
  /** Names registered, changed or removed since the index last caught up, in the order they changed. */
  private readonly pending = new Set<string>();

  constructor(
    private readonly registry: ToolRegistry,
    private readonly schemas: LoadedSchemas,
    private readonly index: ToolIndex = new ToolIndex(),
    /** The optional semantic ranking (docs/search.md, "Embeddings (optional)"); null: lexical only. */
    private readonly semantic: SemanticSearch | null = null,
  ) {
    for (const tool of registry.all()) this.pending.add(tool.spec.name);
    this.unsubscribe = registry.onChange((change) => {
      // A change moves the name to the end, so the index sees the changes in the order they happened.
      this.pending.delete(change.tool.spec.name);
      this.pending.add(change.tool.spec.name);
    });
  }

  /** Ranked matches with their schemas and why each matched (usable tools only); several phrasings are fused. */
  search(query: string | readonly string[], limit: number): ToolSearchHit[] {
    return this.lexical(query, limit).map(({ hit, tool }) => ({
      ...toolSchemaView(tool),
      score: hit.score,
      why: explainHit(hit),
    }));
  }

  /** `search` with the semantic ranking fused in when embeddings are configured and answer; else lexical, with a note. */
  async searchAsync(
    query: string | readonly string[],
    limit: number,
    options: { signal?: AbortSignal } = {},
  ): Promise<ToolSearchResult> {
    if (!this.semantic) return { hits: this.search(query, limit) };
    const lexical = this.lexical(query, Math.max(limit, SEMANTIC_DEPTH)).map(({ hit }) => hit);
    const phrasings = typeof query === 'string' ? [query] : query;
    const exact = phrasings.map((q) => q.trim()).filter((name) => this.registry.get(name));
    const { fused, note } = await this.semantic.rank(query, lexical, {
      limit,
      exact,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const noted = note ? { note } : {};
    const byName = new Map(lexical.map((hit) => [hit.name, hit]));
    const view = (name: string, score: number, why: string): ToolSearchHit[] => {
      const tool = this.registry.get(name);
      return tool ? [{ ...toolSchemaView(tool), score, why }] : [];
    };
    if (!fused)
      return {
        hits: lexical.slice(0, limit).flatMap((hit) => view(hit.name, hit.score, explainHit(hit))),
        ...noted,
      };
    const hits = fused.flatMap((entry) => {
      const hit = byName.get(entry.name);
      const semantic =
        entry.semanticRank !== null && entry.similarity !== null
          ? `semantic match ${entry.similarity.toFixed(2)}`
          : '';
      return view(entry.name, entry.score, [hit ? explainHit(hit) : '', semantic].filter(Boolean).join('; '));
    });
    return { hits, ...noted };
  }

  /** The index's hits for a query (several phrasings fused), with their usable tools. */
  private lexical(
    query: string | readonly string[],
    limit: number,
  ): Array<{ hit: SearchHit; tool: RegisteredTool }> {
    const index = this.upToDate();
    const hits = typeof query === 'string' ? index.search(query, limit) : index.searchMany(query, limit);
    return hits.flatMap((hit) => {
      const tool = this.registry.get(hit.name);
      return tool ? [{ hit, tool }] : [];
    });
  }

  /** Waits for the tools' embeddings to be computed, when a model is configured (a one-shot command's search). */
  async settleEmbeddings(): Promise<void> {
    await this.semantic?.settle();
  }

  /** Every usable tool, systemUse ones only when asked. */
  list(options: { system: boolean }): ToolSummary[] {
    return this.registry
      .all()
      .filter((t) => options.system || !t.spec.flags.systemUse)
      .map(toolSummary);
  }

  /** Exact look-up by name (a broken tool is not found). */
  get(name: string): ToolSchemaView | undefined {
    const tool = this.registry.get(name);
    return tool ? toolSchemaView(tool) : undefined;
  }

  /** The secret key names `name` is handed; undefined when it may use any (see ToolSpec.secrets). */
  secrets(name: string): readonly string[] | undefined {
    return this.registry.get(name)?.spec.secrets?.();
  }

  /** Loads the usable names into the chat; returns those names. */
  loadSchemas(chatId: string, names: string[]): string[] {
    const known = names.filter((n) => this.registry.get(n));
    this.schemas.load(chatId, known);
    return known;
  }

  /** Why `name` is broken, in words (undefined: it is not a broken tool). */
  broken(name: string): string | undefined {
    const broken = this.registry.entry(name)?.broken;
    return broken ? `step ${broken.step}: ${broken.reason}` : undefined;
  }

  /** Names close to an unknown one (for error messages). */
  suggest(name: string, limit = 3): string[] {
    return this.upToDate()
      .search(name.replace(/[_\-.]+/g, ' '), limit)
      .map((h) => h.name);
  }

  /** Stops following the registry, and the semantic ranking's background work and cache. */
  async close(): Promise<void> {
    this.unsubscribe();
    await this.semantic?.close();
  }

  /** The index with every pending change applied; a tool that breaks while indexed may add changes, applied too. */
  private upToDate(): ToolIndex {
    if (this.pending.size === 0) return this.index;
    while (this.pending.size > 0) {
      const names = [...this.pending];
      this.pending.clear();
      for (const name of names) {
        const tool = this.registry.entry(name);
        if (tool) this.follow(tool);
        else this.index.remove(name);
      }
    }
    this.index.flush();
    return this.index;
  }

  // Indexing is a per-tool step: a tool it fails on is marked broken (which removes it here), never the catalogue.
  private follow(tool: RegisteredTool): void {
    const name = tool.spec.name;
    if (tool.broken) {
      this.index.remove(name);
      return;
    }
    try {
      this.index.upsert({ name, description: tool.spec.description, parameters: tool.spec.parameters });
    } catch (error) {
      this.index.remove(name);
      this.registry.markBroken(name, 'index', error);
    }
  }
}
