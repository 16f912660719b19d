// Held-out game (variant of library lights-out): a row of five lights; pressing one flips it and its neighbours.
const N = 5;
const flip = (s, i) => s ^ (((7 << i) >> 1) & ((1 << N) - 1)); // light i and its neighbours i-1, i+1
// Fewest presses from every state that can be switched off (BFS from all-off at module load; 32 states).
const DIST = new Map([[0, 0]]);
for (const queue = [0]; queue.length;) {
  const s = queue.shift();
  for (let i = 0; i < N; i++) if (!DIST.has(flip(s, i))) (DIST.set(flip(s, i), DIST.get(s) + 1), queue.push(flip(s, i)));
}
const SLACK = 1; // difficulty knob: spare presses beyond the fewest

export const spec = {
  name: 'light-row',
  description: `A row of ${N} lights (1 = on). Pressing light k flips light k and the lights right next to it. Switch all of them off. Answer with a light number from 1 to ${N}; presses are limited.`,
  hint: 'Order does not matter and a second press undoes the first, so the answer is a set of lights. Pressing every light except the middle one changes nothing: of two sets that differ by exactly those four, press the smaller.',
  maxTurns: N + SLACK,
};

const show = (s) => kit.range(N).map((i) => (s >> i) & 1).join(' ');

export default class Env {
  reset(seed) {
    do {
      this.s = 0;
      for (let i = 0; i < N; i++) if (kit.chance(0.5)) this.s = flip(this.s, i);
    } while (DIST.get(this.s) < 2);
    this.left = DIST.get(this.s) + SLACK;
    return { observation: this.look() };
  }
  look() {
    return `Lights: ${show(this.s)}. Presses left: ${this.left}.`;
  }
  step(action) {
    const k = kit.parseNumber(action);
    if (!Number.isInteger(k) || k < 1 || k > N) return { observation: `Press a light from 1 to ${N}. Game over.`, reward: 0, terminated: true };
    this.s = flip(this.s, k - 1);
    this.left -= 1;
    if (this.s === 0) return { observation: 'All lights are off!', reward: 1, terminated: true };
    if (this.left === 0) return { observation: `Lights: ${show(this.s)}. Out of presses.`, reward: 0, terminated: true };
    return { observation: this.look(), reward: 0, terminated: false };
  }
}

export function oracle(observation) {
  const bits = observation.slice(8, 8 + 2 * N).split(' ').map(Number);
  const s = bits.reduce((acc, b, i) => acc | (b << i), 0);
  const k = kit.range(N).find((i) => DIST.get(flip(s, i)) === DIST.get(s) - 1);
  return String(k + 1);
}
