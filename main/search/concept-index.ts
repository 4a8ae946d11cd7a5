// Which indexed terms stand for which WordNet concepts: filled from the vocabulary as tools come and go,
// so a query word's related concepts (hyponyms, hypernyms, derivations) resolve by lookup.
import type { WordConcept } from './synonyms';

// Members are packed as term * RANKS + rank of the sense, kept as a multiset: "issue" and "issues" both
// add the same entry and each removal takes one back out.
const RANKS = 8;

/** Concept (synset key) → the terms of the index that may mean it. */
export class ConceptIndex {
  private readonly members = new Map<number, number[]>();
  private readonly byWord = new Map<number, { term: number; concepts: readonly WordConcept[] }>();

  /** Records a new vocabulary word (by its surface id) with its term and concepts. */
  addWord(surface: number, term: number, concepts: readonly WordConcept[]): void {
    if (concepts.length === 0) return;
    this.byWord.set(surface, { term, concepts });
    for (const { concept, rank } of concepts) {
      const list = this.members.get(concept);
      const member = term * RANKS + Math.min(rank, RANKS - 1);
      if (list) list.push(member);
      else this.members.set(concept, [member]);
    }
  }

  /** Forgets a vocabulary word that no tool uses any more. */
  removeWord(surface: number): void {
    const word = this.byWord.get(surface);
    if (!word) return;
    this.byWord.delete(surface);
    for (const { concept, rank } of word.concepts) {
      const list = this.members.get(concept);
      if (!list) continue;
      const at = list.indexOf(word.term * RANKS + Math.min(rank, RANKS - 1));
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) this.members.delete(concept);
    }
  }

  /** Calls back with (term, sense rank) for each indexed term that may mean the concept. */
  forEachMember(concept: number, visit: (term: number, rank: number) => void): void {
    for (const member of this.members.get(concept) ?? []) visit(Math.floor(member / RANKS), member % RANKS);
  }
}
