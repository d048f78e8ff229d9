/**
 * The "did you mean …" of an unknown name (an op, a CLI command, a CuTe type name of docs/descriptors.md): the
 * closest names by edit distance. Here, below every room, so that the table, the CLI and the descriptors share one.
 */
/** the longest name the tables hold is far below this */
const MAX_KNOWN = 64;

/** The edit distance of two short names, a swap of neighbours counting one (optimal string alignment). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The names closest to an unknown one, best first (at most three), read with `-` and `_` alike
 * (a kebab-case subcommand finds its snake_case op and back): those within an edit distance of
 * a quarter of the name (a swap of neighbours counts one), or that contain it or are contained in it.
 * Example: closestNames('logical-divde', ['logical_divide', 'logical_product']) = ['logical_divide'].
 */
export function closestNames(name: string, names: readonly string[]): string[] {
  // a name far longer than any known one is close to none (and its edit distances would cost length × length)
  if (name.length > 4 * MAX_KNOWN) return [];
  const norm = (s: string): string => s.toLowerCase().replace(/-/g, '_');
  const n = norm(name);
  const limit = Math.max(1, Math.floor(n.length / 4));
  return names
    .map((c) => ({ c, d: distance(n, norm(c)) }))
    .filter(({ c, d }) => d <= limit || (n.length >= 4 && (norm(c).includes(n) || n.includes(norm(c)))))
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .slice(0, 3)
    .map(({ c }) => c);
}

/** " (did you mean 'a' or 'b'?)" for closestNames, or '' when none is close. */
export function didYouMean(name: string, names: readonly string[]): string {
  const c = closestNames(name, names).map((x) => `'${x}'`);
  if (c.length === 0) return '';
  return ` (did you mean ${c.length === 1 ? c[0] : `${c.slice(0, -1).join(', ')} or ${c[c.length - 1]}`}?)`;
}
