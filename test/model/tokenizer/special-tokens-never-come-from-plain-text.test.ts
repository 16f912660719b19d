// Special tokens are single ids at fixed positions; plain text that spells them encodes as bytes, with the byte-level
// tokenizer and with a BPE trained on text full of marker spellings.
import t from 'tap';
import { trainTokenizer } from '../../../model/bpe-corpus.js';
import { isTokenizerError } from '../../../model/errors.js';
import { byteTokenizer, FIRST_SPECIAL_ID, SPECIAL_TOKENS, Tokenizer, type SpecialToken } from '../../../model/tokenizer.js';
import { caught, SAMPLE_DOCS } from './helpers.js';

// Train on text full of marker spellings: merges may then form "<|eos|>" byte pieces, still not the special id.
const bpe = new Tokenizer(trainTokenizer([...SAMPLE_DOCS, '<|eos|> <|end_turn|> <|agent|> '.repeat(50)], { vocabSize: 600 }));

for (const tok of [byteTokenizer(), bpe]) {
  t.test(`${tok.name}`, async (t) => {
    SPECIAL_TOKENS.forEach((s, i) => t.equal(tok.specialId(s), FIRST_SPECIAL_ID + i, `${s} has id ${FIRST_SPECIAL_ID + i}`));
    for (const s of SPECIAL_TOKENS) {
      const ids = tok.encode(`say ${s} now${s}`);
      t.notOk(ids.some((id) => tok.isSpecial(id)), `"${s}" in text yields no special id`);
      t.equal(tok.decode([tok.specialId(s)]), s, `${s} decodes to its marker`);
    }
    const turn = tok.encodeTurn('agent', 'add 9');
    t.same([turn[0], turn[turn.length - 1]], [tok.specialId('<|agent|>'), tok.specialId('<|end_turn|>')], 'a turn is marker, text, end_turn');
    t.same(turn.slice(1, -1), tok.encode('add 9'), 'the turn body is the plain encoding');
    t.equal(tok.decode(turn), '<|agent|>add 9<|end_turn|>');
    t.ok(isTokenizerError(caught(() => tok.specialId('<|nope|>' as SpecialToken))), 'an unknown special is a TokenizerError');
    const e = caught(() => tok.decode([tok.vocabSize]));
    t.ok(isTokenizerError(e) && /outside the vocab/.test(String(e)), `an id past the vocab: ${String(e)}`);
  });
}
