// A query as groups of weighted terms: one group per query word, holding the word's own term and the
// terms it expands to (WordNet relations, the domain lexicon, spelling corrections, compound splits), plus
// groups for phrases the lexicon knows and words translated from other languages.
import type { ConceptIndex } from './concept-index';
import type { InvertedIndex } from './inverted-index';
import { maxTypoDistance } from './fuzzy-matcher';
import type { DomainLexicon } from './domain-lexicon';
import { domainLexicon } from './domain-lexicon';
import { FOREIGN_STOPWORDS, translateScript, translateWord } from './foreign-lexicon';
import type { SynonymSource } from './synonyms';
import { RELATION_WEIGHTS } from './synonyms';
import { contentWords, stem } from './tokenize';

/** How much a corrected spelling counts, by edit distance 1 and 2. */
export const TYPO_WEIGHTS = [1, 0.8, 0.6] as const;
/** How much each half of a split compound ("webpage" → web + page) counts. */
export const COMPOUND_WEIGHT = 0.7;
/** How much a domain-lexicon word counts against the query word itself. */
export const LEXICON_WEIGHT = 0.7;
/** How much a true synonym from the domain lexicon counts ("folder" for directory). */
export const SYNONYM_WEIGHT = 0.9;
/** How much a word a lexicon phrase stands for counts ("logged in" → authenticated). */
export const PHRASE_WEIGHT = 0.6;
const MAX_QUERY_WORDS = 32;
const MIN_COMPOUND_PART = 3;

/** One query word's alternatives: term id → weight (the best alternative a tool has is what counts). */
export interface QueryGroup {
  terms: Map<number, number>;
  /** The word's own term when the vocabulary has it: related terms never count more than it does. */
  exact?: number;
  /** The query word (or phrase word, or English translation) the group stands for. */
  word: string;
  /** The word as the query has it (differs from `word` for a translation): what explanations show. */
  typed: string;
  /** How the group came to be: the word as typed, a phrase the lexicon knows, or a translation. */
  origin: 'word' | 'phrase' | 'translation';
}

let lexicon: DomainLexicon | undefined;

/** A query's groups, and its words that matched nothing in the catalogue (not even by spelling). */
export interface QueryPlan {
  groups: QueryGroup[];
  unknown: string[];
}

/** Builds the term groups of a query against the current vocabulary and its concepts. */
export function queryGroups(
  query: string,
  index: InvertedIndex,
  concepts: ConceptIndex,
  synonyms: SynonymSource,
): QueryPlan {
  lexicon ??= domainLexicon();
  const groups: QueryGroup[] = [];
  const unknown: string[] = [];
  const seen = new Set<string>();
  const words: Array<{ word: string; typed: string; origin: QueryGroup['origin']; scale: number }> = [];
  const phrases = lexicon.phrases(query);
  for (const word of contentWords(query).slice(0, MAX_QUERY_WORDS)) {
    if (phrases.replaced.has(word)) continue;
    // A word the catalogue does not use may be another language's: search its English words instead.
    const known = index.termOf(stem(word)) !== undefined;
    const english = known ? [] : translateWord(word);
    if (english.length > 0)
      for (const other of english) words.push({ word: other, typed: word, origin: 'translation', scale: 1 });
    else if (!(FOREIGN_STOPWORDS.has(word) && !known))
      words.push({ word, typed: word, origin: 'word', scale: 1 });
  }
  for (const { word, typed } of translateScript(query))
    words.push({ word, typed, origin: 'translation', scale: 1 });
  for (const word of phrases.words) words.push({ word, typed: word, origin: 'phrase', scale: PHRASE_WEIGHT });
  for (const { word, typed, origin, scale } of words) {
    const own = stem(word);
    if (seen.has(own)) continue;
    seen.add(own);
    const group = wordGroup(word, typed, origin, index, concepts, synonyms);
    // A word a previous word already stands for ("open a new ticket": new is open's) is one need said
    // twice: merged into that group, so a tool's one matching word is not counted for both.
    const same =
      group.exact === undefined
        ? undefined
        : groups.find((g) => (g.terms.get(group.exact as number) ?? 0) >= LEXICON_WEIGHT);
    if (same) {
      for (const [term, weight] of group.terms) addTerm(same, term, weight * scale);
      continue;
    }
    if (group.terms.size > 0) {
      if (scale !== 1) for (const [term, weight] of group.terms) group.terms.set(term, weight * scale);
      groups.push(group);
    } else if (origin === 'word') {
      const fallback = fallbackGroups(word, index);
      if (fallback.length === 0) unknown.push(word);
      groups.push(...fallback);
    }
  }
  return { groups: groups.filter((group) => group.terms.size > 0), unknown };
}

// The word's own term, its WordNet relations and its domain-lexicon words.
function wordGroup(
  word: string,
  typed: string,
  origin: QueryGroup['origin'],
  index: InvertedIndex,
  concepts: ConceptIndex,
  synonyms: SynonymSource,
): QueryGroup {
  const exact = index.termOf(stem(word));
  const group: QueryGroup = { terms: new Map(), word, typed, origin };
  if (exact !== undefined) {
    group.exact = exact;
    group.terms.set(exact, 1);
  }
  const expansion = synonyms.expand(word);
  for (const related of expansion.stems) addTerm(group, index.termOf(related.stem), related.weight);
  for (const link of expansion.concepts) {
    // The indexed word's own sense rank discounts too: "file" the cabinet is not "file" the data file.
    concepts.forEachMember(link.concept, (term, rank) =>
      addTerm(group, term, link.weight * RELATION_WEIGHTS.senseDecay ** rank),
    );
  }
  for (const related of lexicon?.related(word) ?? [])
    addTerm(group, index.termOf(stem(related.word)), related.strict ? SYNONYM_WEIGHT : LEXICON_WEIGHT);
  return group;
}

// A word nothing matched: first a near spelling, then a split into two known words.
function fallbackGroups(word: string, index: InvertedIndex): QueryGroup[] {
  const maxDistance = maxTypoDistance(word);
  if (maxDistance > 0) {
    const { words, distance } = index.nearestWords(word, maxDistance);
    if (words.length > 0) {
      const group: QueryGroup = { terms: new Map(), word, typed: word, origin: 'word' };
      for (const near of words) addTerm(group, index.termOf(stem(near)), TYPO_WEIGHTS[distance] ?? 0);
      return [group];
    }
  }
  for (let cut = MIN_COMPOUND_PART; cut <= word.length - MIN_COMPOUND_PART; cut++) {
    const left = word.slice(0, cut);
    const right = word.slice(cut);
    if (!index.hasWord(left) || !index.hasWord(right)) continue;
    const leftTerm = index.termOf(stem(left));
    const rightTerm = index.termOf(stem(right));
    if (leftTerm === undefined || rightTerm === undefined) continue;
    return [
      { terms: new Map([[leftTerm, COMPOUND_WEIGHT]]), word: left, typed: word, origin: 'word' },
      { terms: new Map([[rightTerm, COMPOUND_WEIGHT]]), word: right, typed: word, origin: 'word' },
    ];
  }
  return [];
}

function addTerm(group: QueryGroup, term: number | undefined, weight: number): void {
  if (term === undefined || weight <= 0) return;
  if (weight > (group.terms.get(term) ?? 0)) group.terms.set(term, weight);
}
