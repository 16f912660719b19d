// Game: take coins from either end of a row against a greedy opponent; only the best possible haul scores.
export const spec = {
  name: 'coin-row',
  description: 'Coins lie in a row. You and the opponent take turns (you first) removing one coin from the left or right end. Answer "left" or "right". You score only if you collect the most this opponent allows.',
  hint: 'The opponent always takes the larger end coin (the left one on a tie) and never plans ahead. Because its replies are predictable, simulate them: compare the full outcome of every sequence of your choices before you move.',
  maxTurns: 6,
};

const show = (row) => `Row: ${row.join(' ')}`;
// The opponent's rule: larger end, left on ties.
const greedy = (row) => (row[0] >= row[row.length - 1] ? 'left' : 'right');
const take = (row, side) => (side === 'left' ? [row[0], row.slice(1)] : [row[row.length - 1], row.slice(0, -1)]);

// Most you can still collect from `row` when it is your move.
function best(row) {
  if (row.length === 0) return 0;
  return Math.max(...['left', 'right'].map((side) => {
    const [coin, rest] = take(row, side);
    return coin + (rest.length ? best(take(rest, greedy(rest))[1]) : 0);
  }));
}

// What a fixed policy (row -> side) collects against the opponent.
function play(row, policy) {
  let mine = 0;
  while (row.length) {
    const [coin, rest] = take(row, policy(row));
    mine += coin;
    row = rest.length ? take(rest, greedy(rest))[1] : rest;
  }
  return mine;
}

export default class Env {
  reset(seed) {
    // Only rows where always-left, always-right and copying the opponent's greed all fall short of the best.
    do {
      this.row = kit.range(12).map(() => kit.randInt(1, 9));
      this.target = best(this.row);
    } while ([() => 'left', () => 'right', greedy].some((policy) => play(this.row, policy) >= this.target));
    this.mine = 0;
    return { observation: `${show(this.row)}. You: 0. Your move.` };
  }
  step(action) {
    const side = kit.words(action).find((w) => w === 'left' || w === 'right');
    if (!side) return { observation: 'Answer left or right. You forfeit.', reward: 0, terminated: true };
    const [coin, rest] = take(this.row, side);
    const [theirs, after] = take(rest, greedy(rest));
    this.mine += coin;
    this.row = after;
    const took = `You took ${coin}, opponent took ${theirs}.`;
    if (this.row.length > 0) return { observation: `${took} ${show(this.row)}. You: ${this.mine}. Your move.`, reward: 0, terminated: false };
    const ok = this.mine >= this.target;
    return { observation: `${took} You collected ${this.mine}; the best possible was ${this.target}.`, reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const row = kit.parseNumbers(observation.match(/Row: ([\d ]+)/)[1]);
  const value = (side) => { const [coin, rest] = take(row, side); return coin + best(take(rest, greedy(rest))[1]); };
  return value('left') >= value('right') ? 'left' : 'right';
}
