// Held-out reasoning (variant of library knights-and-knaves): three villagers who always tell the truth or always lie.
const NAMES = ['Ada', 'Bo', 'Cy'];
const ASSIGNMENTS = kit.range(8).map((m) => NAMES.map((_, i) => ((m >> i) & 1) === 1)); // true = truthful

function holds(s, a) {
  return s.kind === 'is' ? a[s.about] === s.truthful : a[s.about] === a[s.other];
}
function say(s) {
  return s.kind === 'is' ? `${NAMES[s.about]} always ${s.truthful ? 'tells the truth' : 'lies'}` : `${NAMES[s.about]} and ${NAMES[s.other]} are of the same kind`;
}

export const spec = {
  name: 'truth-or-lie',
  description: 'Each of Ada, Bo and Cy always tells the truth or always lies. From what they say, tell who is who. Answer like "Ada truthful, Bo liar, Cy liar". One try.',
  hint: 'Try each of the eight possibilities: a truthful speaker\'s statement must hold and a liar\'s must be false. Exactly one possibility survives.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    for (;;) {
      const said = NAMES.map((_, i) => {
        const others = [0, 1, 2].filter((j) => j !== i);
        return kit.chance(0.5) ? { kind: 'is', about: kit.pick(others), truthful: kit.chance(0.5) } : { kind: 'same', about: others[0], other: others[1] };
      });
      const fits = ASSIGNMENTS.filter((a) => said.every((s, i) => holds(s, a) === a[i]));
      if (fits.length === 1) {
        this.answer = fits[0];
        return { observation: kit.lines(said.map((s, i) => `${NAMES[i]} says: "${say(s)}."`), 'Who tells the truth and who lies?') };
      }
    }
  }
  step(action) {
    const w = kit.words(String(action).slice(0, 200));
    const ok = NAMES.every((n, i) => {
      const at = w.indexOf(n.toLowerCase());
      return at >= 0 && w[at + 1] === (this.answer[i] ? 'truthful' : 'liar');
    });
    return { observation: ok ? 'Correct.' : 'Not right.', reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const said = observation.split('\n').slice(0, 3).map((line) => {
    const m = /says: "(\w+) always (tells|lies)/.exec(line);
    if (m) return { kind: 'is', about: NAMES.indexOf(m[1]), truthful: m[2] === 'tells' };
    const s = /says: "(\w+) and (\w+) are/.exec(line);
    return { kind: 'same', about: NAMES.indexOf(s[1]), other: NAMES.indexOf(s[2]) };
  });
  const a = ASSIGNMENTS.find((x) => said.every((s, i) => holds(s, x) === x[i]));
  return NAMES.map((n, i) => `${n} ${a[i] ? 'truthful' : 'liar'}`).join(', ');
}
