// A one-line summary of a call's arguments, for task lists and logs.

/** `key=value, …` with long values folded, at most `max` characters. */
export function summariseArgs(args: Record<string, unknown>, max = 160): string {
  const parts = Object.entries(args).map(([key, value]) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return `${key}=${fold(text ?? '', 60)}`;
  });
  return fold(parts.join(', '), max);
}

function fold(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
