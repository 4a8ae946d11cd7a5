// The ranking engine behind find_tools(mode=search): BM25F over tool name, source, description and
// parameters, with query words expanded through WordNet and a spelling fallback.
import type { Bm25fParameters } from './bm25f';
import { DEFAULT_BM25F, ScoreBuffers } from './bm25f';
import { ConceptIndex } from './concept-index';
import { InvertedIndex } from './inverted-index';
import { queryGroups } from './query-terms';
import type { SynonymSource } from './synonyms';
import { WordNetSynonyms } from './synonyms';
import type { IndexedTool } from './tool-document';
import { toolFields } from './tool-document';
import { topK } from './top-k';

/** The tool shape the index takes (name, description, optional JSON Schema parameters). */
export type { IndexedTool } from './tool-document';

/** A ranked result. */
export interface SearchHit {
  name: string;
  score: number;
}

/** Options of `ToolIndex`. */
export interface ToolIndexOptions {
  /** Related-word source; defaults to a WordNet source shared by every index in the process. */
  synonyms?: SynonymSource;
  bm25f?: Bm25fParameters;
}

// A query is a sentence, not a document: past this, text is ignored (and cannot slow a search down).
const MAX_QUERY_LENGTH = 2000;

let sharedSynonyms: WordNetSynonyms | undefined;

/** Incremental search index over tools; every call is synchronous and bounded. */
export class ToolIndex {
  private readonly index: InvertedIndex;
  private readonly concepts = new ConceptIndex();
  private readonly buffers = new ScoreBuffers();
  private readonly synonyms: SynonymSource;
  private readonly parameters: Bm25fParameters;

  constructor(options: ToolIndexOptions = {}) {
    this.synonyms = options.synonyms ?? (sharedSynonyms ??= new WordNetSynonyms());
    this.parameters = options.bm25f ?? DEFAULT_BM25F;
    const { concepts, synonyms } = this;
    this.index = new InvertedIndex({
      wordAdded: (surface, word, term) => concepts.addWord(surface, term, synonyms.concepts(word)),
      wordRemoved: (surface) => concepts.removeWord(surface),
    });
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
    this.index.remove(name);
    this.index.add(name, fields);
  }

  /** Removes a tool by name; unknown names are ignored. */
  remove(name: string): void {
    this.index.remove(name);
  }

  /** The best `limit` tools for a query, best first, only scores > 0; [] for empty or odd input. */
  search(query: string, limit: number): SearchHit[] {
    if (typeof query !== 'string' || !(limit >= 1) || this.index.size === 0) return [];
    const groups = queryGroups(query.slice(0, MAX_QUERY_LENGTH), this.index, this.concepts, this.synonyms);
    const exact = this.index.slotOf(query.trim());
    if (groups.length === 0 && exact === undefined) return [];
    const { buffers } = this;
    try {
      buffers.accumulate(this.index, groups, this.parameters);
      if (exact !== undefined) this.promote(exact);
      const scores = buffers.totals;
      const best = topK(
        buffers.touched,
        Math.floor(Math.min(limit, this.index.size)),
        (slot) => scores[slot] as number,
        (slot) => this.index.nameOf(slot),
      );
      return best.map((slot) => ({ name: this.index.nameOf(slot), score: scores[slot] as number }));
    } finally {
      buffers.reset();
    }
  }

  // A query that is exactly a tool's full name asks for that tool: rank it first.
  private promote(slot: number): void {
    const { totals, touched } = this.buffers;
    let top = 0;
    for (const other of touched) top = Math.max(top, totals[other] as number);
    if ((totals[slot] as number) === 0) touched.push(slot);
    totals[slot] = top + 1;
  }
}
