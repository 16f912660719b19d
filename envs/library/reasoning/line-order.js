// Reasoning (constraints): deduce the order of five people in a queue from clues.
const PEOPLE = ['Ann', 'Bo', 'Cat', 'Dan', 'Eve'];
const CLUES = [
  [(p, a, b) => p.indexOf(a) < p.indexOf(b), (a, b) => `${a} stands somewhere in front of ${b}.`],
  [(p, a, b) => p.indexOf(a) + 1 === p.indexOf(b), (a, b) => `${a} stands directly in front of ${b}.`],
  [(p, a, b) => Math.abs(p.indexOf(a) - p.indexOf(b)) > 1, (a, b) => `${a} and ${b} are not next to each other.`],
  [(p, a) => p.indexOf(a) > 0 && p.indexOf(a) < 4, (a) => `${a} is not at either end.`],
  [(p, a) => p.indexOf(a) % 2 === 0, (a) => `${a} stands first, third or fifth.`],
];
const perms = (xs) => (xs.length ? [].concat(...xs.map((x) => perms(xs.filter((y) => y !== x)).map((p) => [x, ...p]))) : [[]]);
const ALL = perms(PEOPLE);

export const spec = {
  name: 'line-order',
  description: 'Five people stand in a queue. Use the clues to answer with their names from front to back.',
  hint: 'Glue each "directly in front of" pair into one block first; then the "not at either end" and "first, third or fifth" clues leave only a few places for each block.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    this.order = kit.shuffle(PEOPLE);
    const clues = [];
    let fits = ALL;
    while (fits.length > 1) {
      const [test, text] = kit.pick(CLUES), [a, b] = kit.sample(PEOPLE, 2);
      if (!test(this.order, a, b) || fits.every((p) => test(p, a, b))) continue; // true and informative only
      clues.push(text(a, b));
      fits = fits.filter((p) => test(p, a, b));
    }
    return { observation: kit.lines(kit.list(clues), 'Who stands where, front to back?') };
  }
  step(action) {
    const said = kit.words(action).map((w) => PEOPLE.find((p) => p.toLowerCase() === w)).filter(Boolean);
    const ok = said.length === 5 && said.every((p, i) => p === this.order[i]);
    return { observation: ok ? 'Correct!' : `Wrong. The order was ${this.order.join(', ')}.`, reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const tests = observation.split('\n').slice(0, -1).map((line) => {
    for (const [test, text] of CLUES) for (const a of PEOPLE) for (const b of PEOPLE)
      if (line.endsWith(text(a, b))) return (p) => test(p, a, b);
  });
  return ALL.find((p) => tests.every((test) => test(p))).join(' ');
}
