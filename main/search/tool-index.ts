// The ranking engine behind find_tools(mode=search): BM25F over tool name, source, description and
// parameters, with query words expanded through WordNet, a domain lexicon and a small lexicon of other
// languages, a spelling fallback, and a reranker over the best 50 (docs/tools.md, "Tool discovery").
import type { Action } from './actions';
import { queryAction, toolAction } from './actions';
import type { Bm25fParameters } from './bm25f';
import { DEFAULT_BM25F, ScoreBuffers } from './bm25f';
import { ConceptIndex } from './concept-index';
import { InvertedIndex } from './inverted-index';
import type { QueryGroup } from './query-terms';
import { queryGroups } from './query-terms';
import type { RerankWeights, WordMatch } from './rerank';
import { matchesOf, RERANK_DEPTH, RERANK_WEIGHTS, rerank } from './rerank';
import type { SynonymSource } from './synonyms';
import { WordNetSynonyms } from './synonyms';
import type { IndexedTool } from './tool-document';
import { toolFields } from './tool-document';
import { topK } from './top-k';

/** The tool shape the index takes (name, description, optional JSON Schema parameters). */
export type { IndexedTool } from './tool-document';
export type { WordMatch } from './rerank';

/** A ranked result: why it matched is each query word's best match in the tool. */
export interface SearchHit {
  name: string;
  score: number;
  matches: WordMatch[];
  /** Query words this tool matched in no field (a hit missing the query's key word is a weak one). */
  unmatched: string[];
}

/** Why a hit matched, in a line: `query word→tool word (fields)`, the arrow only for a related word. */
export function explainHit(hit: Pick<SearchHit, 'matches' | 'unmatched'>): string {
  const parts = hit.matches.map(
    (match) =>
      `${match.query === match.tool ? match.query : `${match.query}→${match.tool}`} (${match.fields.join(', ')})`,
  );
  if (hit.unmatched.length > 0) parts.push(`not matched: ${hit.unmatched.join(', ')}`);
  return parts.join('; ');
}

/** Options of `ToolIndex`. */
export interface ToolIndexOptions {
  /** Related-word source; defaults to a WordNet source shared by every index in the process. */
  synonyms?: SynonymSource;
  bm25f?: Bm25fParameters;
  /** Reranker weights; `false` turns the second pass off (first-pass BM25F order). */
  rerank?: RerankWeights | false;
}

// A query is a sentence, not a document: past this, text is ignored (and cannot slow a search down).
const MAX_QUERY_LENGTH = 2000;
/** Most phrasings one `searchMany` call takes. */
export const MAX_PHRASINGS = 5;
// Reciprocal rank fusion's constant: a tool ranked well by several phrasings beats one ranked first by one.
const FUSION_K = 10;

/**
 * The most vocabulary words looked up in WordNet (each look-up reads its files, ~0.1 ms): the ~1,000 real tools in
 * bench/data hold ~3,000 words, while a hostile catalogue of made-up words (a cloned repository's tools, an MCP
 * server's) held 300,000 and made the first search take 37 s. Words past it are still indexed, only without the
 * concepts that relate them to a query's synonyms.
 */
export const MAX_CONCEPT_WORDS = 30_000;

let sharedSynonyms: WordNetSynonyms | undefined;

/** Incremental search index over tools; every call is synchronous and bounded. */
export class ToolIndex {
  private readonly index: InvertedIndex;
  private readonly concepts = new ConceptIndex();
  private readonly buffers = new ScoreBuffers();
  private readonly synonyms: SynonymSource;
  private readonly parameters: Bm25fParameters;
  private readonly weights: RerankWeights | false;
  private readonly actions = new Map<number, Action>();

  constructor(options: ToolIndexOptions = {}) {
    this.synonyms = options.synonyms ?? (sharedSynonyms ??= new WordNetSynonyms());
    this.parameters = options.bm25f ?? DEFAULT_BM25F;
    this.weights = options.rerank ?? RERANK_WEIGHTS;
    const { concepts, synonyms } = this;
    // Words given their WordNet concepts; a vocabulary past the bound is indexed without them (docs/search.md).
    const related = new Set<number>();
    this.index = new InvertedIndex({
      wordAdded: (surface, word, term) => {
        if (related.size >= MAX_CONCEPT_WORDS) return;
        related.add(surface);
        concepts.addWord(surface, term, synonyms.concepts(word));
      },
      wordRemoved: (surface) => {
        if (related.delete(surface)) concepts.removeWord(surface);
      },
    });
  }

  /** Saves what the synonym source's lasting cache learnt while tools were indexed. */
  flush(): void {
    this.synonyms.flush?.();
  }

  /** Number of indexed tools. */
  get size(): number {
    return this.index.size;
  }

  /** Adds a tool, or replaces the one of the same name. */
  upsert(tool: IndexedTool): void {
    const name = String(tool.name);
    // Read the tool before touching the index: if its fields cannot be read, the index is left as it was.
    const fields = toolFields(tool);
    this.remove(name);
    this.index.add(name, fields);
    const action = toolAction(fields.name);
    const slot = this.index.slotOf(name);
    if (action && slot !== undefined) this.actions.set(slot, action);
  }

  /** Removes a tool by name; unknown names are ignored. */
  remove(name: string): void {
    const slot = this.index.slotOf(name);
    if (slot !== undefined) this.actions.delete(slot);
    this.index.remove(name);
  }

  /** The best `limit` tools for a query, best first, only scores > 0; [] for empty or odd input. */
  search(query: string, limit: number): SearchHit[] {
    if (typeof query !== 'string' || !(limit >= 1) || this.index.size === 0) return [];
    const text = query.slice(0, MAX_QUERY_LENGTH);
    const { groups, unknown } = queryGroups(text, this.index, this.concepts, this.synonyms);
    const exact = this.index.slotOf(query.trim());
    if (groups.length === 0 && exact === undefined) return [];
    const { buffers } = this;
    const count = Math.floor(Math.min(limit, this.index.size));
    try {
      buffers.accumulate(this.index, groups, this.parameters);
      const scores = buffers.totals;
      const best = topK(
        buffers.touched,
        this.weights ? Math.max(count, RERANK_DEPTH) : count,
        (slot) => scores[slot] as number,
        (slot) => this.index.nameOf(slot),
      );
      const first = best.map((slot) => ({ slot, score: scores[slot] as number }));
      const ranked = this.weights
        ? rerank(this.index, first, groups, this.actionsFor(groups), this.weights)
        : first.map((hit) => ({ ...hit, matches: matchesOf(this.index, hit.slot, groups) }));
      if (exact !== undefined) promote(ranked, exact, () => matchesOf(this.index, exact, groups));
      const words = [
        ...new Set([...groups.filter((g) => g.origin !== 'phrase').map((g) => g.typed), ...unknown]),
      ];
      return ranked.slice(0, count).map((hit) => ({
        name: this.index.nameOf(hit.slot),
        score: hit.score,
        matches: hit.matches,
        unmatched: words.filter((word) => !hit.matches.some((match) => match.query === word)),
      }));
    } finally {
      buffers.reset();
    }
  }

  /**
   * Several phrasings of one need, fused: each is searched on its own and a tool's fused score is the sum
   * of 1 / (k + rank) over the phrasings that found it. Its matches are those of its best-ranked phrasing.
   */
  searchMany(queries: readonly string[], limit: number): SearchHit[] {
    const phrasings = [...new Set(queries.filter((q) => typeof q === 'string' && q.trim() !== ''))];
    if (phrasings.length <= 1) return this.search(phrasings[0] ?? '', limit);
    const fused = new Map<string, { score: number; rank: number; hit: SearchHit }>();
    for (const phrasing of phrasings.slice(0, MAX_PHRASINGS)) {
      this.search(phrasing, Math.max(limit, RERANK_DEPTH)).forEach((hit, rank) => {
        const entry = fused.get(hit.name);
        const share = 1 / (FUSION_K + rank + 1);
        if (!entry) fused.set(hit.name, { score: share, rank, hit });
        else {
          entry.score += share;
          if (rank < entry.rank) Object.assign(entry, { rank, hit });
        }
      });
    }
    return [...fused.values()]
      .sort((a, b) => b.score - a.score || (a.hit.name < b.hit.name ? -1 : 1))
      .slice(0, Math.floor(limit))
      .map(({ score, hit }) => ({ ...hit, score }));
  }

  // The query's verb is read from its groups, so a translated verb ("crear" → create) counts too.
  private actionsFor(groups: readonly QueryGroup[]): {
    query: Action | undefined;
    tool: (slot: number) => Action | undefined;
  } {
    const words = groups.filter((group) => group.origin !== 'phrase').map((group) => group.word);
    return { query: queryAction(words), tool: (slot) => this.actions.get(slot) };
  }
}

// A query that is exactly a tool's full name asks for that tool: rank it first.
function promote(
  ranked: Array<{ slot: number; score: number; matches: WordMatch[] }>,
  slot: number,
  matches: () => WordMatch[],
): void {
  const at = ranked.findIndex((hit) => hit.slot === slot);
  const top = Math.max(0, ...ranked.map((hit) => hit.score));
  const [hit] = at >= 0 ? ranked.splice(at, 1) : [{ slot, score: 0, matches: matches() }];
  if (hit) ranked.unshift({ ...hit, score: top + 1 });
}

export type { QueryGroup };
