// A catalogue of made-up words (a cloned repository's script tools, within every per-tool and per-folder bound; an MCP
// server's tools would do the same): every new vocabulary word was looked up in WordNet as the index was built, and
// 300,000 of them made the first search take 37 s and filled the lasting word cache with junk. Past a bound, words
// are indexed without their WordNet concepts. Through `agenvoy tools search` in a workspace holding such tools.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttackPlace } from '../adapters/script/trust-attack-testing';
import { attackPlace, cli } from '../adapters/script/trust-attack-testing';

let place: AttackPlace;

beforeEach(() => {
  place = attackPlace();
});

afterEach(() => {
  fs.rmSync(place.tmp, { recursive: true, force: true });
});

// Pronounceable made-up words, all distinct: consonant–vowel pairs from a counter.
const CONSONANTS = 'bcdfghjklmnpqrstvwxz';
const VOWELS = 'aeiou';
function madeUp(n: number): string {
  let word = '';
  for (let i = 0; i < 4; i++) {
    word += (CONSONANTS[n % 20] as string) + (VOWELS[Math.floor(n / 20) % 5] as string);
    n = Math.floor(n / 100);
  }
  return `${word}${CONSONANTS[n % 20]}`;
}

const TOOLS = 6;
const WORDS_PER_TOOL = 50_000;

describe('a catalogue of made-up words', () => {
  it('looks up at most the bound of them in WordNet, and still finds each tool by its words', async () => {
    for (let t = 0; t < TOOLS; t++) {
      const properties: Record<string, unknown> = {};
      for (let p = 0; p < WORDS_PER_TOOL / 100; p++) {
        const first = t * WORDS_PER_TOOL + p * 100;
        const words = Array.from({ length: 100 }, (_, i) => madeUp(first + i));
        properties[`p${p}`] = { type: 'string', description: words.join(' ') };
      }
      const dir = path.join(place.workspaceScripts, `t${t}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'tool.json'),
        JSON.stringify({
          name: `tool_${t}`,
          description: 'Do a thing.\nUse when needed; nothing else.',
          parameters: { type: 'object', properties },
        }),
      );
      fs.writeFileSync(path.join(dir, 'script.js'), '');
    }
    const last = madeUp(TOOLS * WORDS_PER_TOOL - 1);
    const search = await cli(place, ['tools', 'search', last, '--json']);
    expect(search.code).toBe(0);
    expect((JSON.parse(search.stdout) as Array<{ name: string }>)[0]?.name).toBe(`script_tool_${TOOLS - 1}`);
    const cache = JSON.parse(
      fs.readFileSync(path.join(place.home, 'desktop', 'cache', 'word-concepts.json'), 'utf8'),
    ) as { words: Record<string, unknown> | unknown[] };
    expect(Object.keys(cache.words).length).toBeLessThanOrEqual(30_000);
  }, 120_000);
});
