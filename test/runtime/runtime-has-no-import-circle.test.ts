// runtime/ is layered: leaves (log, errors, subjects, topology-decls), then the connection, the actor contract, the
// host's parts, the host. No file imports one that imports it back, type-only imports included; a circle fails here
// with its files and the imports that close it.
import t from 'tap';
import { posix } from 'node:path';
import { importsOf, parseSource, sourceFiles } from '../helpers/source-files.js';

/** runtime/ file → the runtime/ files it imports (a `./x.js` specifier names `x.ts`). */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(parseSource(file))
      .filter((i) => i.specifier.startsWith('.'))
      .map((i) => posix.normalize(posix.join(posix.dirname(file), i.specifier)).replace(/\.js$/, '.ts'))
      .filter((p) => known.has(p));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components that are circles (two files or more, or a file importing itself); Tarjan's. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || graph.get(v)!.includes(v)) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

t.test('no runtime/ file is in an import circle', async (t) => {
  const files = sourceFiles(['runtime']);
  t.ok(files.includes('runtime/host.ts') && files.includes('runtime/actor.ts'), 'the scan sees the runtime sources');
  const graph = importGraph(files);
  t.ok(graph.get('runtime/host.ts')!.includes('runtime/actor.ts'), 'the scan sees imports between runtime files');
  const found = circles(graph).map((c) => c.map((f) => `${f} -> ${graph.get(f)!.filter((g) => c.includes(g)).join(', ')}`));
  t.same(found, [], 'runtime/ files in a circle (each with its imports inside the circle): move what the lower file needs to a leaf');
});
