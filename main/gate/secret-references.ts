// The `${secret:NAME}` placeholders a call's arguments carry (docs/secrets.md, "How tools get secrets"): http_request
// fills them in from the keychain just before sending. A standing approval covers only the secrets the person saw a
// call send (docs/security.md, "Decisions and rules"), so the gate reads them from every string of the arguments.

/** A placeholder as http_request reads it (tools/builtin/web/secret-template.ts); the name is group 1. */
export const SECRET_REFERENCE = /\$\{secret:([A-Za-z_][A-Za-z0-9_]{0,127})\}/g;

// Arguments are bounded before the gate sees them (argument-size.ts); this bounds the walk on its own as well.
const MAX_VALUES = 100_000;

/** The secret names the arguments refer to, sorted and without repeats. */
export function secretReferences(args: unknown): string[] {
  const names = new Set<string>();
  const stack: unknown[] = [args];
  let seen = 0;
  while (stack.length > 0 && seen++ < MAX_VALUES) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes('${secret:'))
        for (const match of value.matchAll(SECRET_REFERENCE)) names.add(match[1] ?? '');
    } else if (Array.isArray(value)) stack.push(...value);
    else if (value !== null && typeof value === 'object') stack.push(...Object.values(value));
  }
  return [...names].sort();
}

/** Whether every secret of `wanted` is among those a standing approval covers. */
export function secretsCovered(wanted: readonly string[], covered: readonly string[] | undefined): boolean {
  return wanted.every((name) => covered?.includes(name) === true);
}
