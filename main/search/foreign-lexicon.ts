// A small built-in lexicon for queries in other languages: the verbs and nouns tool requests are made of,
// in German, French, Spanish, Portuguese, Italian, Chinese and Japanese, mapped to English index words.
// Tool catalogues are written in English; a query word found here is searched as its English words.

import { FOREIGN_TABLE as TABLE } from './foreign-lexicon-table';

// Articles, prepositions and pronouns of those languages: dropped, never spelling-corrected into English.
export const FOREIGN_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'der die das den dem des ein eine einen einem einer im ins zum zur und oder mit von auf für fuer ' +
    'le la les l un une des du de d au aux et ou dans sur pour avec ce cette ces mon ma mes ' +
    'el los las lo una unos unas del al y en con por para mi mis ' +
    'o os um uma dos das da no na nos nas e em com ' +
    'il lo gli i uno della dello dei degli nel nella con per'
  ).split(' '),
);

const byWord = new Map<string, string[]>();
const scripts: Array<readonly [string, string[]]> = [];
for (const [english, translations] of TABLE) {
  for (const word of translations.split(' ')) {
    const list = byWord.get(word) ?? [];
    list.push(...english.split(' '));
    byWord.set(word, list);
    // Chinese and Japanese are written without spaces: their words are looked for inside the text.
    if (/[\u3040-\u30ff\u3400-\u9fff]/u.test(word)) scripts.push([word, english.split(' ')]);
  }
}
scripts.sort((a, b) => b[0].length - a[0].length);

/** English words for a lowercase query word, [] when the lexicon lacks it. */
export function translateWord(word: string): readonly string[] {
  return byWord.get(word) ?? [];
}

/** English words for Chinese and Japanese words found inside a text (longest first, each span once). */
export function translateScript(text: string): Array<{ word: string; typed: string }> {
  if (!/[\u3040-\u30ff\u3400-\u9fff]/u.test(text)) return [];
  const found: Array<{ word: string; typed: string }> = [];
  let rest = text;
  for (const [word, words] of scripts) {
    if (!rest.includes(word)) continue;
    found.push(...words.map((english) => ({ word: english, typed: word })));
    rest = rest.split(word).join(' ');
  }
  return found;
}
