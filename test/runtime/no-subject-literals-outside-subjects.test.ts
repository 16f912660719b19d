// Every subject, wildcard, stream, bucket and KV key is spelled once, in runtime/subjects.ts: a string literal
// elsewhere in the sources that names one fails here, with its file and line.
import t from 'tap';
import ts from 'typescript';
import * as names from '../../runtime/subjects.js';
import { lineOf, parseSource, sourceFiles } from '../helpers/source-files.js';

const SCANNED = ['actors', 'dashboard', 'model', 'sandbox', 'corpus', 'scripts', 'runtime', 'envs', 'bench', 'eval', 'experiment', 'warmstart', 'weight-sync', 'cluster.config.ts'];
const HOME = 'runtime/subjects.ts';

/**
 * Files that still spell names, each with what it spells (none left; a listed file with no literal left fails).
 */
const NOT_YET_CONVERTED: Readonly<Record<string, string>> = {};

/** Every string value exported by subjects.ts (functions are called with a sample argument to get their shape). */
function namedValues(): string[] {
  const out: string[] = [];
  const visit = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'function') out.push(String((v as (x: string) => unknown)('x')));
    else if (v && typeof v === 'object') for (const x of Object.values(v)) visit(x);
  };
  visit(names);
  return out;
}

const values = namedValues();
/** Subject families: the second token of every named subject (`job`, `env`, `traj`, `metrics`, …). */
const families = new Set(values.filter((v) => v.startsWith('spade.')).map((v) => v.split('.')[1]!));
/** Names distinctive enough to recognise anywhere (`version` is only recognised as a KV call's key, below). */
const distinctive = new Set(values.filter((v) => /[._/-]/.test(v) && v.length >= 6));

/** Why `text` (one literal, or one literal piece of a template) names a subject, stream, bucket or key, or null. */
function whatItNames(text: string): string | null {
  for (const m of text.matchAll(/(?<![\w.$])spade\.[\w.*>-]*/g)) {
    const tokens = m[0].split('.');
    if (tokens.some((x) => x === '>' || x === '*')) return `wildcard ${m[0]}`;
    if (families.has(tokens[1]!) || tokens.length >= 3) return `subject ${m[0]}`;
  }
  if (/\w\.(>|\*)(\.|$|['"\s])/.test(text)) return `wildcard in ${JSON.stringify(text)}`;
  if (/^SPADE_[A-Z0-9_]*$/.test(text)) return `stream ${text}`;
  if (/^spade_[a-z0-9_]+$/.test(text)) return `bucket ${text}`;
  if (distinctive.has(text)) return `name ${text}`;
  return null;
}

const KV_CALLS = new Set(['get', 'put', 'create', 'update', 'delete', 'purge', 'watch']);

/** A literal that is the key of a KV call: `kv.get('…')`, `runKv.put('…', …)`, `kv.watch({ key: '…' })`. */
function isKvKey(node: ts.StringLiteralLike): boolean {
  // The call's first argument is the literal itself, or the `{ key: … }` object holding it.
  const arg: ts.Node = ts.isPropertyAssignment(node.parent) && node.parent.name.getText() === 'key' ? node.parent.parent : node;
  const call = arg.parent;
  if (!call || !ts.isCallExpression(call) || call.arguments[0] !== arg || !ts.isPropertyAccessExpression(call.expression)) return false;
  return KV_CALLS.has(call.expression.name.text) && /kv/i.test(call.expression.expression.getText());
}

function literalsIn(file: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const pieces: string[] = [];
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      pieces.push(node.text);
      if (isKvKey(node)) found.push(`${file}:${lineOf(node)} KV key ${JSON.stringify(node.text)}`);
    } else if (ts.isTemplateExpression(node)) {
      pieces.push(node.head.text, ...node.templateSpans.map((s) => s.literal.text));
    }
    // Module specifiers are paths, not names.
    if (!(ts.isImportDeclaration(node.parent ?? node) || ts.isExportDeclaration(node.parent ?? node)))
      for (const p of pieces) {
        const what = whatItNames(p);
        if (what) found.push(`${file}:${lineOf(node)} ${what}`);
      }
    ts.forEachChild(node, visit);
  };
  visit(parseSource(file));
  return found;
}

t.test('subject names live only in runtime/subjects.ts', async (t) => {
  t.test('subjects.ts names every family the scan recognises', async (t) => {
    t.ok(families.has('env') && families.has('metrics') && families.has('dlq'), `families: ${[...families].join(', ')}`);
    t.ok(distinctive.has(names.POLICY_KEYS.learnerLock) && distinctive.has(names.BUCKETS.policy), 'KV keys and buckets are recognised');
    t.equal(whatItNames("spade tail 'spade.env.>' --since 10m"), 'wildcard spade.env.>', 'a name inside help text is found');
    t.equal(whatItNames('spade.policy_version'), null, 'a safetensors metadata key is not a subject');
  });

  t.test('no subject, wildcard, stream, bucket or KV-key literal outside runtime/subjects.ts', async (t) => {
    const files = sourceFiles(SCANNED).filter((f) => f !== HOME);
    t.ok(files.includes('runtime/topology.ts') && files.includes('actors/loop/messages.ts'), 'the scan sees the sources');
    const offending: string[] = [];
    const allowedButClean: string[] = [];
    for (const file of files) {
      const hits = literalsIn(file);
      if (Object.hasOwn(NOT_YET_CONVERTED, file)) {
        if (hits.length === 0) allowedButClean.push(file);
        continue;
      }
      offending.push(...hits);
    }
    t.same(offending, [], `name these in ${HOME} and use the constant`);
    t.same(allowedButClean, [], 'these files spell no names any more: remove them from NOT_YET_CONVERTED');
  });
});
