// Runs an async step over many items with at most `limit` in flight, results in the items' order. Used where a
// serial loop of small file reads waits on the disk once per item (script folders: docs/hosts.md, "Fast start").

/**
 * `step` over every item, at most `limit` at once; the results keep the items' order. The first step to throw
 * rejects the whole map, after the steps already started have settled (none is left running behind the caller).
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  step: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (failure === null && next < items.length) {
      const index = next++;
      try {
        results[index] = await step(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
  return results;
}
