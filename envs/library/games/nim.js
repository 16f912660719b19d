// Game: normal-play Nim against a perfect opponent, starting from a position the first player can win.
export const spec = {
  name: 'nim',
  description: 'Nim: take any number of stones from one heap; whoever takes the last stone wins. You move first against a perfect opponent. Answer "heap count", e.g. "2 3" takes 3 stones from heap 2.',
  hint: 'Write each heap size in binary and XOR them all (the nim-sum). Always move so the nim-sum of the heaps you leave is zero; the opponent can then never win.',
  maxTurns: 32,
};

const xor = (heaps) => heaps.reduce((a, b) => a ^ b, 0);
const show = (heaps) => heaps.map((h, i) => `heap ${i + 1}: ${h}`).join(', ');

// A move that leaves nim-sum zero, or the smallest legal move when there is none.
function bestMove(heaps) {
  const s = xor(heaps);
  for (let i = 0; i < heaps.length; i++) if (s !== 0 && (heaps[i] ^ s) < heaps[i]) return [i, heaps[i] - (heaps[i] ^ s)];
  return [heaps.findIndex((h) => h > 0), 1];
}

export default class Env {
  reset(seed) {
    do this.heaps = kit.range(kit.randInt(3, 4)).map(() => kit.randInt(1, 9));
    while (xor(this.heaps) === 0);
    return { observation: `${show(this.heaps)}. Your move.` };
  }
  step(action) {
    const [h, n] = kit.parseNumbers(action);
    if (!(h >= 1 && h <= this.heaps.length && n >= 1 && n <= this.heaps[h - 1] && Number.isInteger(n))) {
      return { observation: 'Illegal move. You forfeit.', reward: 0, terminated: true };
    }
    this.heaps[h - 1] -= n;
    if (this.heaps.every((x) => x === 0)) return { observation: 'You took the last stone. You win!', reward: 1, terminated: true };
    const [i, m] = bestMove(this.heaps);
    this.heaps[i] -= m;
    if (this.heaps.every((x) => x === 0)) return { observation: `Opponent takes ${m} from heap ${i + 1} and the last stone. You lose.`, reward: 0, terminated: true };
    return { observation: `Opponent takes ${m} from heap ${i + 1}. ${show(this.heaps)}. Your move.`, reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  const heaps = [...observation.matchAll(/heap \d+: (\d+)/g)].map((m) => Number(m[1]));
  const [i, m] = bestMove(heaps);
  return `${i + 1} ${m}`;
}
