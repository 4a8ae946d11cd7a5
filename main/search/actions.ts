// What a tool does and what a query asks for, as one of a few actions: tool names are mostly verb–object
// ("create_issue", "pods_list", "issue_write"), and requests mostly start with the verb ("remove a ticket").
// The reranker favours tools whose action agrees with the query's and demotes those that contradict it.

/** The actions tools are named after. */
export type Action = 'create' | 'read' | 'list' | 'update' | 'delete' | 'search' | 'run' | 'stop';

const VERBS: Record<Action, string> = {
  create:
    'create add new make insert post write append push upload generate declare register put fork clone copy ' +
    'duplicate star open start',
  read: 'get read show view fetch retrieve see display describe inspect open download look print export',
  list: 'list enumerate which browse',
  update:
    'update edit modify change set rename retitle patch move transition assign reassign mark resolve ' +
    'acknowledge replace reorder reprioritize switch checkout scale resize bring',
  delete:
    'delete remove drop erase clear uninstall forget destroy purge unstar unstage reset dismiss teardown',
  search: 'search find query lookup look',
  run: 'run execute exec trigger evaluate launch install deploy restart rerun perform',
  stop: 'stop cancel halt terminate kill pause close disconnect',
};

const byVerb = new Map<string, Action>();
for (const [action, verbs] of Object.entries(VERBS) as Array<[Action, string]>) {
  for (const verb of verbs.split(' ')) if (!byVerb.has(verb)) byVerb.set(verb, action);
}

// Pairs that do not contradict each other: listing is a way of reading, searching of listing.
const COMPATIBLE = new Set([
  'read:list',
  'list:read',
  'list:search',
  'search:list',
  'read:search',
  'search:read',
  'create:update',
  'update:create',
  'run:create',
  'create:run',
]);

/** The action of a lowercase verb, if it is one. */
export function actionOf(word: string): Action | undefined {
  return byVerb.get(word);
}

/** A tool's action: the first word of its own name that is a verb ("pods_list" → list). */
export function toolAction(nameWords: readonly string[]): Action | undefined {
  for (const word of nameWords) {
    const action = byVerb.get(word);
    if (action) return action;
  }
  return undefined;
}

/** A query's action: a verb among its first three content words ("please remove the ticket" → delete). */
export function queryAction(words: readonly string[]): Action | undefined {
  for (const word of words.slice(0, 3)) {
    const action = byVerb.get(word);
    if (action) return action;
  }
  return undefined;
}

/** 1 when the actions agree, -1 when they contradict, 0 when either is unknown or they are compatible. */
export function actionAgreement(query: Action | undefined, tool: Action | undefined): number {
  if (!query || !tool) return 0;
  if (query === tool) return 1;
  return COMPATIBLE.has(`${query}:${tool}`) ? 0 : -1;
}
