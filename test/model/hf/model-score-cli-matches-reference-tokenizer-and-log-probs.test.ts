// `spade model score DIR --text ... --json` on a Hugging Face fixture with its own tokenizer.json: the token ids are
// those of the reference BPE (make_hf_fixtures.py applies the tokenizer's merges independently) and the log-probs
// the reference's within 2e-4; --ids gives the same; bad input is a usage error naming the flag
// (exit 2 through the CLI).
import t from 'tap';
import { Writable } from 'node:stream';
import { modelCommand } from '../../../model/cli-model.js';
import { isUsageError } from '../../../runtime/errors.js';
import { caughtAsync } from '../tokenizer/helpers.js';
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

  // The rest in this process (the command's own entry; one child process is enough to cover the CLI wiring).
  let printed = '';
  const io = { stdout: new Writable({ write: (c: Buffer, _e, done) => ((printed += String(c)), done()) }), stderr: new Writable({ write: (_c, _e, done) => done() }) };
  t.equal(await modelCommand(['score', dir, '--ids', EXPECTED.text.ids.join(','), '--json'], io), 0);
  t.same(JSON.parse(printed) as unknown, got, '--ids gives the same line');
  const bad = await caughtAsync(() => modelCommand(['score', dir, '--ids', '1,99'], io));
  t.ok(isUsageError(bad) && /--ids must be token ids in \[0, 48\) \(got "99"\)/.test((bad as Error).message), String(bad));
  const both = await caughtAsync(() => modelCommand(['score', dir, '--ids', '1,2', '--text', 'the'], io));
  t.ok(isUsageError(both) && /exactly one of --ids and --text/.test((both as Error).message), String(both));
});
