// How waiting requests without a cached prefix are cut into prefill calls: a call pads every row to its longest
// prompt and attends over S² cells a row, so rows of like length go together and a call stays within a cell budget.

/** Rows shortest prompt first, cut into groups whose rows x longest² stays within `cells` (a longer row alone). */
export function byPrefillCells<R extends { prompt: readonly number[] }>(rows: R[], cells: number): R[][] {
  const groups: R[][] = [];
  let group: R[] = [];
  for (const row of [...rows].sort((a, b) => a.prompt.length - b.prompt.length)) {
    const S = row.prompt.length; // the longest of the group so far
    if (group.length && (group.length + 1) * S * S > cells) groups.push(group.splice(0));
    group.push(row);
  }
  if (group.length) groups.push(group);
  return groups;
}
