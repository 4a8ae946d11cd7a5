// Software and tool vocabulary WordNet does not know or ranks too low: words people use for what tools
// name otherwise ("ticket" for issue, "folder" for directory, "PR" for pull request), and phrases that stand
// for one tool word ("logged in as" → the authenticated user). Written as general vocabulary, not per tool.

import { stem } from './tokenize';

/**
 * Words that name the same thing in tool catalogues; every word of a set expands to the others. A set
 * marked `!` holds true synonyms (a folder is a directory), which count nearly as much as the word itself.
 */
const SETS: readonly string[] = [
  '!issue ticket',
  'issue bug task',
  '!directory folder dir',
  '!repository repo',
  'repository project',
  'file document',
  '!delete remove',
  'delete drop erase destroy purge',
  'create new make add open',
  'list enumerate show',
  'get fetch retrieve read view show see display',
  'update edit modify change patch set',
  'search find query lookup look',
  'rename retitle',
  'message post chat',
  'send post',
  'comment reply note',
  'user person people member account',
  'team group',
  'picture image screenshot snapshot capture',
  'log logs output',
  'error failure fail failed crash',
  'run execute exec trigger start launch',
  'stop cancel halt terminate',
  'restart reboot rerun',
  'install deploy',
  'record entry document row item',
  'field column attribute property',
  'schema structure shape',
  '!database db',
  'table collection',
  'container pod',
  'page webpage site',
  'wiki confluence',
  'browser page tab',
  'popup dialog alert modal',
  'dropdown select option combobox',
  'click press tap',
  'type enter input write',
  'diff difference changes compare',
  'history versions log previous',
  'commit save',
  'stage add',
  'unstage reset',
  'checkout switch',
  'merge combine',
  'fork copy clone duplicate',
  'star favourite favorite bookmark like',
  'assign assignee responsible owner',
  'label tag',
  'reaction emoji react',
  'notification inbox',
  'vulnerability vulnerable security advisory cve',
  'secret password key token credential',
  'dependency dependencies package library',
  'release version',
  'scale replicas resize',
  'metric metrics stats statistics usage consumption',
  'memory ram',
  'cpu processor',
  'alert alarm warning',
  'current now currently',
  'incident outage',
  'oncall on-call pager',
  'silence mute snooze',
  'trace tracing span',
  'dashboard board',
  'sprint iteration',
  'worklog timesheet time spent',
  'transition status state move',
  'epic parent',
  'attachment attach upload',
  'download export save',
  'knowledge graph entity entities memory remember',
  'observation fact',
  'relation relationship link connect',
  'size bytes big large',
  'modified changed updated timestamp info metadata',
  'navigate go visit open',
  'back previous',
  'console devtools',
  'cookie cookies',
  'video recording record',
  'pdf document',
  'vm virtual machine',
  'shell terminal command',
  'permission permitted allowed access restriction restrictions',
  'blame author wrote',
  'unread miss missed',
  'channel room',
  'thread replies conversation',
  'mock fake stub intercept route',
  'block paragraph content',
  'append end add',
];

/**
 * Phrases that stand for tool words. An idiom's own words are dropped from the query ("logged in" is not
 * about logs); a phrase marked `+` keeps them and adds its words ("pull request" → also "pr").
 */
const PHRASES: ReadonlyArray<readonly [string, string]> = [
  ['logged in', 'authenticated me user'],
  ['signed in', 'authenticated me user'],
  ['who am i', 'authenticated me user'],
  ['who wrote', 'blame'],
  ['who changed', 'blame'],
  ['last modified', 'info metadata'],
  ['how big', 'size sizes'],
  ['how many', 'count number'],
  ['get rid of', 'delete remove'],
  ['drop down', 'dropdown select option'],
  ['drop-down', 'dropdown select option'],
  ['+pull request', 'pr'],
  ['+merge request', 'pull request'],
  ['in progress', 'transition status'],
  ['on call', 'oncall'],
  ['shell inside', 'exec'],
  ['go back', 'back navigate'],
  ['sign out', 'logout'],
  ['too slow', 'slow performance'],
  ['+web page', 'page'],
];

/** The phrases found in a query: the words they stand for, and the query words an idiom replaces. */
export interface PhraseMatch {
  words: string[];
  replaced: Set<string>;
}

/** A related word and whether it is a true synonym. */
export interface RelatedWord {
  word: string;
  strict: boolean;
}

/** Related words of each lexicon word, with the phrase table. */
export interface DomainLexicon {
  related(word: string): readonly RelatedWord[];
  phrases(text: string): PhraseMatch;
}

/** Builds the lexicon from the tables above (once per process). */
export function domainLexicon(): DomainLexicon {
  const byWord = new Map<string, Map<string, boolean>>();
  for (const entry of SETS) {
    const strict = entry.startsWith('!');
    const words = (strict ? entry.slice(1) : entry).split(' ');
    // Keyed by stem, so "records" and "folders" find their sets as "record" and "folder" do.
    for (const word of words) {
      const key = stem(word);
      const related = byWord.get(key) ?? new Map<string, boolean>();
      for (const other of words)
        if (stem(other) !== key) related.set(other, strict || related.get(other) === true);
      byWord.set(key, related);
    }
  }
  const frozen = new Map(
    [...byWord].map(([word, related]) => [
      word,
      [...related].map(([other, strict]) => ({ word: other, strict })),
    ]),
  );
  return {
    related: (word) => frozen.get(stem(word)) ?? [],
    phrases: (text) => {
      const lower = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}-]+/gu, ' ')} `;
      const match: PhraseMatch = { words: [], replaced: new Set() };
      for (const [entry, words] of PHRASES) {
        const keep = entry.startsWith('+');
        const phrase = keep ? entry.slice(1) : entry;
        if (!lower.includes(` ${phrase} `)) continue;
        match.words.push(...words.split(' '));
        if (!keep) for (const word of phrase.split(/[\s-]+/)) match.replaced.add(word);
      }
      return match;
    },
  };
}
