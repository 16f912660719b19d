// Reasoning: knights always tell the truth, knaves always lie; deduce who is which from their statements.
const NAMES = ['Ada', 'Ben', 'Cy', 'Dee'];
const SAYINGS = [
  [(k, a, b) => k[a], (a) => `${NAMES[a]} is a knight`],
  [(k, a, b) => !k[a], (a) => `${NAMES[a]} is a knave`],
  [(k, a, b) => k[a] === k[b], (a, b) => `${NAMES[a]} and ${NAMES[b]} are the same kind`],
  [(k, a, b) => k[a] !== k[b], (a, b) => `${NAMES[a]} and ${NAMES[b]} are different kinds`],
  [(k, a, b) => !k[a] || !k[b], (a, b) => `at least one of ${NAMES[a]} and ${NAMES[b]} is a knave`],
  [(k, a, b) => k[a] || k[b], (a, b) => `at least one of ${NAMES[a]} and ${NAMES[b]} is a knight`],
];
const ALL = kit.range(16).map((m) => NAMES.map((_, i) => ((m >> i) & 1) === 1));

export const spec = {
  name: 'knights-and-knaves',
  description: 'Four islanders are each a knight (always truthful) or a knave (always lies). From what they say, answer with four words, knight or knave, for Ada, Ben, Cy and Dee in that order.',
  hint: 'If X says "Y is a knight", X and Y are the same kind; if X says "Y is a knave", they are different kinds. Chain these links, then use the remaining statements to fix one islander.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    this.kinds = NAMES.map(() => kit.chance(0.5));
    const said = [];
    let fits = ALL;
    while (fits.length > 1 && said.length < 12) {
      const who = kit.randInt(0, 3), [a, b] = kit.sample(kit.range(4), 2), [test, text] = kit.pick(SAYINGS);
      if (test(this.kinds, a, b) !== this.kinds[who]) continue; // knights say only truths, knaves only lies
      said.push(`${NAMES[who]} says: "${text(a, b)}."`);
      fits = fits.filter((k) => test(k, a, b) === k[who]);
    }
    if (fits.length > 1) return this.reset(seed);
    return { observation: kit.lines(said, 'Who is a knight and who is a knave? (Ada Ben Cy Dee)') };
  }
  step(action) {
    const guess = kit.words(action).filter((w) => w === 'knight' || w === 'knave');
    const truth = this.kinds.map((k) => (k ? 'knight' : 'knave'));
    const ok = guess.length === 4 && guess.every((g, i) => g === truth[i]);
    return { observation: ok ? 'Correct!' : `Wrong. The answer was: ${truth.join(' ')}.`, reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const claims = observation.split('\n').slice(0, -1).map((line) => {
    const who = NAMES.findIndex((n) => line.startsWith(n));
    for (const [test, text] of SAYINGS) for (const a of kit.range(4)) for (const b of kit.range(4))
      if (line.includes(`"${text(a, b)}."`)) return (k) => test(k, a, b) === k[who];
  });
  const kinds = ALL.find((k) => claims.every((c) => c(k)));
  return kinds.map((k) => (k ? 'knight' : 'knave')).join(' ');
}
