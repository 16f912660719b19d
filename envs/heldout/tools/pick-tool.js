// Held-out tool use (new, easy): pick the tool that answers the question and pass it the city the question names.
const CITIES = ['Oslo', 'Lima', 'Accra', 'Hanoi', 'Quito', 'Perth', 'Riga', 'Dakar'];
const TOOLS = { weather: 'What is the weather', time: 'What time is it', population: 'How many people live' };

export const spec = {
  name: 'pick-tool',
  description: 'Answer the question by calling the one tool that fits it, e.g. weather({"city": "Paris"}). One call.',
  hint: 'Match the question\'s first words to a tool: weather questions ask what it is like outside, time questions ask the hour, population questions ask how many people.',
  maxTurns: 1,
};

export default class Env {
  reset(seed) {
    this.tool = kit.pick(Object.keys(TOOLS));
    this.city = kit.pick(CITIES);
    const sigs = Object.keys(TOOLS).map((t) => `${t}({"city": string})`).join(', ');
    return { observation: `Tools: ${sigs}. Question: ${TOOLS[this.tool]} in ${this.city}?` };
  }
  step(action) {
    const c = kit.parseCall(action);
    const ok = !!c && c.name === this.tool && !!c.args && c.args.city === this.city;
    return { observation: ok ? 'Right tool, right city.' : 'Wrong call.', reward: ok ? 1 : 0, terminated: true };
  }
}

export function oracle(observation) {
  const q = observation.slice(observation.indexOf('Question:'));
  const tool = Object.keys(TOOLS).find((t) => q.includes(TOOLS[t]));
  const city = CITIES.find((c) => q.includes(` ${c}?`));
  return `${tool}({"city": "${city}"})`;
}
