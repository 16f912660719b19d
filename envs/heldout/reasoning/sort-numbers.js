// Held-out reasoning (new, medium): put a few numbers in ascending order.
const COUNT = 5; // difficulty knob: how many numbers

export const spec = {
  name: 'sort-numbers',
  description: `Sort the ${COUNT} numbers from smallest to largest. Answer with all of them, separated by spaces. One try.`,
  hint: 'Take the smallest number still left, write it down, cross it out, and repeat until none remain.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    this.nums = kit.sample(kit.range(1, 100), COUNT);
    return { observation: `Numbers: ${this.nums.join(' ')}. Sort them ascending.` };
  }
  step(action) {
    const got = kit.parseNumbers(String(action).slice(0, 200));
    const want = this.nums.slice().sort((a, b) => a - b);
    const ok = got.length === want.length && got.every((n, i) => n === want[i]);
    return { observation: ok ? 'Sorted correctly.' : 'Not the sorted list.', reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  return kit.parseNumbers(observation).slice(0, COUNT).sort((a, b) => a - b).join(' ');
}
