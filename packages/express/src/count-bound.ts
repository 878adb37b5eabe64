/**
 * lru-cache options that keep at most `entries` entries, without allocating room for them up
 * front. With `max`, lru-cache allocates its arrays for `max` entries as the cache is made:
 * for a limit's 50,000 keys about 1.2 MB and 4 ms, for each of a middleware's three limits,
 * when most portals' limits hold a few hundred keys. `maxSize`, each entry counted as 1, bounds
 * the count as `max` would; its arrays grow as entries come.
 */
export function countBound(entries: number) {
  return { maxSize: entries, sizeCalculation: () => 1 };
}
