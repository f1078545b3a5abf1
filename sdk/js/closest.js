// The closest of some known names to a misspelt one (Levenshtein distance),
// for the "did you mean" of a refused release, feature or op name.

function editDistance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/** The name of `known` closest to `name` (the first of equals). */
export function closest(name, known) {
  return [...known].sort((x, y) => editDistance(name, x) - editDistance(name, y))[0];
}
