// Reasoning: continue an integer sequence defined by a two-term linear recurrence.
export const spec = {
  name: 'sequence-next',
  description: 'Six terms of an integer sequence are shown. Answer with the next term.',
  hint: 'Each term is p times the previous term plus q times the one before it, for small whole numbers p and q. Solve for p and q from the first four terms, then check them on the last two.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    let t;
    do {
      const p = kit.pick([1, 2, 3, -1, -2]), q = kit.pick([1, 2, 3, -1, -2, -3]);
      t = [kit.randInt(1, 6), kit.randInt(1, 6)];
      while (t.length < 7) t.push(p * t[t.length - 1] + q * t[t.length - 2]);
    } while (t[1] * t[1] === t[0] * t[2] || Math.abs(t[6]) < 10 || t.some((x) => Math.abs(x) > 5000)); // p, q recoverable, answer not guessable
    this.next = t[6];
    return { observation: `Sequence: ${t.slice(0, 6).join(', ')}, ?\nWhat is the next term?` };
  }
  step(action) {
    const ok = kit.parseNumber(action) === this.next;
    return { observation: ok ? 'Correct!' : `Wrong, it was ${this.next}.`, reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const t = kit.parseNumbers(observation);
  // t2 = p t1 + q t0 and t3 = p t2 + q t1, solved by Cramer's rule.
  const det = t[1] * t[1] - t[0] * t[2];
  const p = (t[2] * t[1] - t[3] * t[0]) / det, q = (t[1] * t[3] - t[2] * t[2]) / det;
  return String(p * t[5] + q * t[4]);
}
