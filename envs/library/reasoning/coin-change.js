// Reasoning: pay an amount with the fewest coins when the greedy method does not give the fewest.
export const spec = {
  name: 'coin-change',
  description: 'Pay the amount exactly with the fewest coins of the given values. Answer with the coins, e.g. "5 + 5 + 1".',
  hint: 'Taking the largest coin first is never the best here. Work out the fewest coins for every amount from one upward: best(n) = 1 + the smallest best(n - c) over the coin values c.',
  maxTurns: 1,
};

function fewest(coins, amount) {
  const best = [[]];
  for (let n = 1; n <= amount; n++) {
    best[n] = null;
    for (const c of coins) if (c <= n && best[n - c] && (!best[n] || best[n - c].length + 1 < best[n].length)) best[n] = [...best[n - c], c];
  }
  return best[amount];
}
function greedy(coins, amount) {
  let n = 0;
  for (const c of [...coins].sort((a, b) => b - a)) while (amount >= c) { amount -= c; n++; }
  return n;
}

export default class Env {
  reset(seed) {
    do {
      this.coins = [1, ...kit.sample(kit.range(3, 16), 2)].sort((a, b) => a - b);
      this.amount = kit.randInt(15, 60);
    } while (greedy(this.coins, this.amount) === fewest(this.coins, this.amount).length);
    this.best = fewest(this.coins, this.amount).length;
    return { observation: `Coin values: ${this.coins.join(', ')}. Amount: ${this.amount}. Use as few coins as possible.` };
  }
  step(action) {
    const used = kit.parseNumbers(action);
    const sum = used.reduce((a, b) => a + b, 0);
    const ok = used.every((c) => this.coins.includes(c)) && sum === this.amount && used.length === this.best;
    return { observation: ok ? 'Correct!' : `Wrong: ${this.best} coins suffice.`, reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const nums = kit.parseNumbers(observation);
  return fewest(nums.slice(0, 3), nums[3]).join(' + ');
}
