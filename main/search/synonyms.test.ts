import { describe, expect, it } from 'vitest';
import { baseForms } from './morphy';
import { conceptKey, WordNetSynonyms } from './synonyms';
import { stem } from './tokenize';
import { WordNet } from './wordnet';

describe('WordNet files', () => {
  const wordnet = new WordNet();

  it('finds index entries by binary search, first and last lines included', () => {
    const fetch = wordnet.lookup('fetch', 'verb');
    expect(fetch?.offsets.length).toBeGreaterThan(0);
    expect(wordnet.synset('verb', fetch?.offsets[0] ?? 0).words).toContain('get');
    expect(wordnet.lookup('zymurgy', 'noun')).toBeDefined();
    expect(wordnet.lookup("'hood", 'noun')).toBeDefined();
    expect(wordnet.lookup('zzzzzz', 'noun')).toBeUndefined();
    expect(wordnet.lookup('', 'verb')).toBeUndefined();
  });

  it('reads pointers of a synset', () => {
    const remove = wordnet.lookup('remove', 'verb');
    const synset = wordnet.synset('verb', remove?.offsets[0] ?? 0);
    expect(synset.pointers.some((pointer) => pointer.symbol === '~')).toBe(true);
  });
});

describe('baseForms', () => {
  it('undoes regular inflections', () => {
    expect(baseForms('creating', 'verb')).toContain('create');
    expect(baseForms('issues', 'noun')).toContain('issue');
    expect(baseForms('running', 'verb')).toContain('run');
    expect(baseForms('branches', 'noun')).toContain('branch');
  });
});

describe('WordNetSynonyms', () => {
  const synonyms = new WordNetSynonyms();

  it('expands a word to synonyms of its frequent senses', () => {
    const stems = synonyms.expand('fetch').stems.map((expansion) => expansion.stem);
    expect(stems).toContain(stem('get'));
    expect(stems).not.toContain(stem('fetch'));
  });

  it('links a word to narrower concepts, which index words resolve to by sense', () => {
    const removeLinks = new Map(
      synonyms.expand('remove').concepts.map((link) => [link.concept, link.weight]),
    );
    const deleteConcepts = synonyms.concepts('delete').map((concept) => concept.concept);
    // "delete" is a hyponym of "remove": the link exists with a weight below an exact match.
    const shared = deleteConcepts.filter((concept) => removeLinks.has(concept));
    expect(shared.length).toBeGreaterThan(0);
    for (const concept of shared) expect(removeLinks.get(concept)).toBeLessThan(1);
  });

  it('reduces inflected words to their lemma', () => {
    expect(synonyms.concepts('created').length).toBeGreaterThan(0);
    expect(synonyms.expand('creating').concepts.length).toBeGreaterThan(0);
  });

  it('returns nothing for unknown words and caches results', () => {
    expect(synonyms.expand('qwzx')).toEqual({ stems: [], concepts: [] });
    expect(synonyms.concepts('github')).toEqual([]);
    expect(synonyms.expand('fetch')).toBe(synonyms.expand('fetch'));
  });

  it('degrades to no expansions when the dictionary is missing', () => {
    const broken = new WordNetSynonyms({ wordnet: new WordNet('/nonexistent/wordnet') });
    expect(broken.expand('fetch')).toEqual({ stems: [], concepts: [] });
    expect(broken.concepts('delete')).toEqual([]);
  });

  it('names concepts by part of speech and offset', () => {
    expect(conceptKey('noun', 42)).not.toBe(conceptKey('verb', 42));
  });
});
