// Held-out game (variant of library nim): one pile, take 1 to 3 stones per turn, whoever takes the last stone wins,
// against an opponent who plays perfectly whenever it can.
const MAX_TAKE = 3; // difficulty knob (with the pile size): the most stones per turn

export const spec = {
  name: 'take-away',
  description: `One pile of stones. On your turn take 1 to ${MAX_TAKE} stones; then I take some. Whoever takes the last stone wins. Answer with how many you take.`,
  hint: 'The player who faces a pile that is a multiple of four loses against good play: always take enough to leave me a multiple of four.',
  maxTurns: 12,
};

export default class Env {
  reset(seed) {
    do this.pile = kit.randInt(9, 23);
    while (this.pile % (MAX_TAKE + 1) === 0);
    return { observation: `The pile has ${this.pile} stones. Your turn: take 1 to ${MAX_TAKE}.` };
  }
  step(action) {
    const n = kit.parseNumber(action);
    if (n === null || !Number.isInteger(n) || n < 1 || n > Math.min(MAX_TAKE, this.pile)) {
      return { observation: 'Illegal move: you forfeit.', reward: 0, terminated: true };
    }
    this.pile -= n;
    if (this.pile === 0) return { observation: 'You took the last stone. You win!', reward: 1, terminated: true };
    const good = this.pile % (MAX_TAKE + 1);
    const mine = good === 0 ? kit.randInt(1, Math.min(MAX_TAKE, this.pile)) : good;
    this.pile -= mine;
    if (this.pile === 0) return { observation: `I take ${mine} and the last stone. I win.`, reward: 0, terminated: true };
    return { observation: `I take ${mine}. The pile has ${this.pile} stones. Your turn: take 1 to ${MAX_TAKE}.`, reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  const pile = Number(/pile has (\d+)/.exec(observation)[1]);
  return String(pile % (MAX_TAKE + 1) || 1);
}
