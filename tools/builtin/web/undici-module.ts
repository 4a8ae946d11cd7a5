// undici for the web tools, loaded with the first request rather than at start: the CLI's commands that never fetch
// (tools list, rules, trust) do not pay for it (docs/hosts.md, "Fast start").
import type * as UndiciModule from 'undici';

type Undici = typeof UndiciModule;

let loading: Promise<Undici> | null = null;

/** The undici module, imported once on first use. */
export function undici(): Promise<Undici> {
  loading ??= import('undici');
  return loading;
}
