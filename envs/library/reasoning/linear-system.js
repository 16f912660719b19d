// Reasoning: solve a system of three linear equations with whole-number solutions.
export const spec = {
  name: 'linear-system',
  description: 'Solve the three equations for x, y and z. Answer as "x=.. y=.. z=..".',
  hint: 'Subtract multiples of one equation from the others to remove x, then remove y the same way; every unknown is a whole number from -9 to 9, so check your answer in all three equations.',
  maxTurns: 1,
};

const det3 = (m) =>
  m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);

export default class Env {
  reset(seed) {
    let m;
    do m = kit.range(3).map(() => kit.range(3).map(() => kit.randInt(-5, 5)));
    while (det3(m) === 0);
    this.sol = kit.range(3).map(() => kit.randInt(-9, 9));
    const eqs = m.map((row) => {
      const lhs = row.map((c, i) => (c === 0 ? '' : `${c < 0 ? '- ' : '+ '}${Math.abs(c)}${'xyz'[i]}`)).filter(Boolean).join(' ');
      return `${lhs.replace(/^\+ /, '').replace(/^- /, '-')} = ${row.reduce((s, c, i) => s + c * this.sol[i], 0)}`;
    });
    return { observation: kit.lines(eqs, 'Answer as x=.. y=.. z=..') };
  }
  step(action) {
    const got = ['x', 'y', 'z'].map((v) => {
      const m = action.match(new RegExp(`${v}\\s*=\\s*(-?\\d+)`));
      return m ? Number(m[1]) : null;
    });
    const ok = got.every((g, i) => g === this.sol[i]);
    return { observation: ok ? 'Correct!' : `Wrong. x=${this.sol[0]} y=${this.sol[1]} z=${this.sol[2]}.`, reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const eqs = observation.split('\n').slice(0, 3);
  const coef = (lhs, v) => {
    const m = lhs.replace(/\s+/g, '').match(new RegExp(`([+-]?\\d+)${v}`));
    return m ? Number(m[1]) : 0;
  };
  const rows = eqs.map((e) => { const [lhs, rhs] = e.split('='); return [coef(lhs, 'x'), coef(lhs, 'y'), coef(lhs, 'z'), Number(rhs)]; });
  for (const x of kit.range(-9, 10)) for (const y of kit.range(-9, 10)) for (const z of kit.range(-9, 10))
    if (rows.every((r) => r[0] * x + r[1] * y + r[2] * z === r[3])) return `x=${x} y=${y} z=${z}`;
  return 'x=0 y=0 z=0';
}
