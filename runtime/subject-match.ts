// NATS subject wildcard matching ('*' one token, '>' the rest), used to find the streams a tail pattern covers.

function tokens(s: string): string[] {
  return s.split('.');
}

/** True when some concrete subject could match both patterns. */
export function subjectsOverlap(a: string, b: string): boolean {
  const ta = tokens(a);
  const tb = tokens(b);
  for (let i = 0; i < Math.max(ta.length, tb.length); i++) {
    const x = ta[i];
    const y = tb[i];
    if (x === '>' || y === '>') return x !== undefined && y !== undefined;
    if (x === undefined || y === undefined) return false;
    if (x !== '*' && y !== '*' && x !== y) return false;
  }
  return true;
}

/** True when every subject matched by `inner` is matched by `outer`. */
export function subjectCovers(outer: string, inner: string): boolean {
  const to = tokens(outer);
  const ti = tokens(inner);
  for (let i = 0; i < to.length; i++) {
    const o = to[i]!;
    const x = ti[i];
    if (o === '>') return x !== undefined;
    if (x === undefined) return false;
    if (o === '*') {
      if (x === '>') return false;
      continue;
    }
    if (o !== x) return false;
  }
  return to.length === ti.length;
}
