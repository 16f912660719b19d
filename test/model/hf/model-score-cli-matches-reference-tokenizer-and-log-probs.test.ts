// `spade model score DIR --text ... --json` on a Hugging Face fixture with its own tokenizer.json: the token ids are
// those of the reference BPE (make_hf_fixtures.py applies the tokenizer's merges independently) and the log-probs
// the reference's within 2e-4; --ids gives the same; bad input is a usage error naming the flag.
import t from 'tap';
import { EXPECTED, fixtureDir, maxAbsDiff } from './fixtures.js';
import { spadeCli } from './spade-cli.js';

t.test('spade model score --text tokenizes like the reference and scores its log-probs', async (t) => {
  const dir = fixtureDir(EXPECTED.text.model);
  const r = await spadeCli(['model', 'score', dir, '--text', EXPECTED.text.text, '--json']);
  t.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  t.equal(lines.length, 1, 'one JSON line');
  const got = JSON.parse(lines[0]!) as { tokens: number[]; logprobs: number[] };
  t.same(got.tokens, EXPECTED.text.ids, 'token ids of the reference tokenizer');
  t.equal(got.logprobs.length, got.tokens.length - 1, 'logprobs[i] scores token i+1');
  const d = maxAbsDiff(got.logprobs, EXPECTED.text.logprobs);
  t.ok(d <= 2e-4, `log-probs within ${d.toExponential(2)} <= 2e-4 of the reference`);

  const byIds = await spadeCli(['model', 'score', dir, '--ids', EXPECTED.text.ids.join(','), '--json']);
  t.same(JSON.parse(byIds.stdout) as unknown, got, '--ids gives the same line');

  const bad = await spadeCli(['model', 'score', dir, '--ids', '1,99']);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /--ids must be token ids in \[0, 48\) \(got "99"\)/);
  const both = await spadeCli(['model', 'score', dir, '--ids', '1,2', '--text', 'the']);
  t.equal(both.code, 2);
  t.match(both.stderr, /exactly one of --ids and --text/);
});
