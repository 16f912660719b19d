// The incremental trainer learns exactly the merges of the naive algorithm that recounts every
// pair after every merge (same tie-break), and encoding the training text replays those merges.
import t from 'tap';
import { utf8Latin1 } from '../../../model/bpe-pretokenize.js';
import { pairKey, PretokenCounter, trainBpe } from '../../../model/bpe-train.js';
import { FIRST_MERGE_ID, SPECIAL_TOKENS, Tokenizer } from '../../../model/tokenizer.js';
import { PRETOKENIZER_NAME } from '../../../model/bpe-pretokenize.js';
import { mulberry32, SAMPLE_DOCS } from './helpers.js';

function naive(counts: ReadonlyMap<string, number>, merges: number): { merges: number[]; words: Map<string, number[]> } {
  let words = [...counts].map(([p, n]) => ({ p, s: [...p].map((c) => c.charCodeAt(0)), n }));
  const out: number[] = [];
  for (let m = 0; m < merges; m++) {
    const pc = new Map<number, number>();
    for (const w of words) for (let i = 0; i + 1 < w.s.length; i++) pc.set(pairKey(w.s[i]!, w.s[i + 1]!), (pc.get(pairKey(w.s[i]!, w.s[i + 1]!)) ?? 0) + w.n);
    let best = -1, bestCount = 1; // a pair must occur at least twice
    for (const [k, c] of pc) if (c > bestCount || (c === bestCount && best >= 0 && k < best)) [best, bestCount] = [k, c];
    if (best < 0) break;
    const a = Math.floor(best / 65536), b = best % 65536, id = FIRST_MERGE_ID + m;
    out.push(a, b);
    words = words.map((w) => {
      const s: number[] = [];
      for (let i = 0; i < w.s.length; i++) {
        if (i + 1 < w.s.length && w.s[i] === a && w.s[i + 1] === b) (s.push(id), i++);
        else s.push(w.s[i]!);
      }
      return { p: w.p, s, n: w.n };
    });
  }
  return { merges: out, words: new Map(words.map((w) => [w.p, w.s])) };
}

t.test('same merges as the naive trainer', async (t) => {
  const rnd = mulberry32(11);
  const syllables = ['ab', 'ba', 'aa', 'a', 'b', ' ', '  ', '\n', 'ré', '1', '=='];
  const random = Array.from({ length: 40 }, () => Array.from({ length: 60 }, () => syllables[Math.floor(rnd() * syllables.length)]).join(''));
  for (const [what, docs, merges] of [['sample docs', SAMPLE_DOCS, 300], ['repetitive random text', random, 200]] as const) {
    const counter = new PretokenCounter();
    for (const d of docs) counter.add(utf8Latin1(d));
    const fast = trainBpe(counter.counts, { merges, firstMergeId: FIRST_MERGE_ID });
    const slow = naive(counter.counts, merges);
    t.same(fast, slow.merges, `${what}: ${fast.length / 2} merges agree`);

    // Encoding each training pre-token must end where training left it.
    const tok = new Tokenizer({
      format: 'spade-tokenizer', version: 1, kind: 'bpe', name: 'x', pretokenizer: PRETOKENIZER_NAME,
      specials: [...SPECIAL_TOKENS], vocabSize: FIRST_MERGE_ID + fast.length / 2, merges: fast,
    });
    let differ = 0;
    for (const [piece, final] of slow.words) {
      const ids = tok.encodeBytes(Buffer.from(piece, 'latin1'));
      if (ids.join() !== final.join()) differ++;
    }
    t.equal(differ, 0, `encoding reproduces training's segmentation of all ${slow.words.size} pre-tokens`);
  }
});
