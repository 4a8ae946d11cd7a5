// Second pass over the best BM25F candidates: how much of the query each tool's own name covers, and
// whether its action agrees with the query's (docs/tools.md, "Tool discovery"). No trained model: a few
// features read from the index, weighed by hand on the tune half of the evaluation set.
import type { Action } from './actions';
import { actionAgreement } from './actions';
import type { InvertedIndex } from './inverted-index';
import { fieldFrequency } from './inverted-index';
import type { QueryGroup } from './query-terms';
import { FIELD_COUNT } from './tool-document';

/** How many first-pass candidates the reranker sees. */
export const RERANK_DEPTH = 50;

/** Weights of the reranker's features, added to the first-pass score scaled to the best candidate's. */
export interface RerankWeights {
  /** Share of the query the tool covers in any field. */
  coverage: number;
  /** Action agreement: +1 same, -1 contradicting. */
  action: number;
  /** Share of the tool's own name words the query matched (create_issue over create_issue_link). */
  precision: number;
}

/** Searched on the tune half (bench/find-tools-tune.ts); a separate name-coverage feature scored 0 there. */
export const RERANK_WEIGHTS: RerankWeights = { coverage: 0.8, action: 0.2, precision: 0.35 };

/** The field names, in posting order, as explanations show them. */
export const FIELD_NAMES = ['name', 'source', 'description', 'parameters'] as const;

/** One query word's match in a tool: the tool's word it matched and the fields holding it. */
export interface WordMatch {
  /** The query word as typed (for a lexicon phrase, the word the phrase stands for). */
  query: string;
  /** The tool's own word that matched (differs from `query` for synonyms, spellings and translations). */
  tool: string;
  fields: Array<(typeof FIELD_NAMES)[number]>;
  /** How close the match is: 1 for the word itself, less for related words. */
  weight: number;
}

/** A reranked candidate with its features. */
export interface Reranked {
  slot: number;
  score: number;
  matches: WordMatch[];
}

/** Each query group's best match in a tool. */
export function matchesOf(index: InvertedIndex, slot: number, groups: readonly QueryGroup[]): WordMatch[] {
  const matches: WordMatch[] = [];
  for (const group of groups) {
    // The tool's best word for the group: the closest word, a match in its name counting half as much again.
    let best: { term: number; weight: number; packed: number; rank: number } | undefined;
    for (const [term, weight] of group.terms) {
      const packed = index.frequency(slot, term);
      const rank = weight * (fieldFrequency(packed, 0) > 0 ? 1.5 : 1);
      if (packed !== 0 && rank > (best?.rank ?? 0)) best = { term, weight, packed, rank };
    }
    if (!best) continue;
    const packed = best.packed;
    const fields = FIELD_NAMES.filter((_, field) => fieldFrequency(packed, field) > 0);
    matches.push({
      query: group.typed,
      tool: index.surfaceOf(best.term),
      fields,
      weight: round(best.weight),
    });
  }
  return matches;
}

/** Reorders candidates (best first-pass first) by first-pass score plus the reranker's features. */
export function rerank(
  index: InvertedIndex,
  candidates: ReadonlyArray<{ slot: number; score: number }>,
  groups: readonly QueryGroup[],
  actions: { query: Action | undefined; tool: (slot: number) => Action | undefined },
  weights: RerankWeights = RERANK_WEIGHTS,
): Reranked[] {
  const top = candidates[0]?.score ?? 0;
  if (top <= 0 || groups.length === 0) return candidates.map((c) => ({ ...c, matches: [] }));
  // A phrase's or translation's group counts as much as its weight; the query's own words count fully.
  const total = groups.reduce((sum, group) => sum + Math.max(...group.terms.values()), 0);
  const reranked = candidates.map(({ slot, score }) => {
    const matches = matchesOf(index, slot, groups);
    let any = 0;
    let nameWords = 0;
    for (const match of matches) {
      any += match.weight;
      if (match.fields.includes('name')) nameWords += match.weight;
    }
    const nameLength = index.fieldLengths[0]?.[slot] ?? 0;
    const precision = nameLength > 0 ? Math.min(1, nameWords / nameLength) : 0;
    const agreement = actionAgreement(actions.query, actions.tool(slot));
    const value =
      score / top +
      (weights.coverage * any) / total +
      weights.action * agreement +
      weights.precision * precision;
    return { slot, score: value, matches };
  });
  const byName = (a: Reranked, b: Reranked): number => (index.nameOf(a.slot) < index.nameOf(b.slot) ? -1 : 1);
  return reranked.sort((a, b) => b.score - a.score || byName(a, b));
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

// FIELD_COUNT and FIELD_NAMES must agree.
if (FIELD_NAMES.length !== FIELD_COUNT) throw new Error('FIELD_NAMES does not match FIELD_COUNT');
