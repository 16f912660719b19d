// Tools (small-model family): close a named person's ticket with a JSON tool call. Unhinted play lists the tickets
// first (which costs part of the reward); the instance's hint gives the ticket's id, so hinted play copies the
// name and id into one call. Knobs: TICKETS (listed), LIST_COST, TURNS, ID_DIGITS.
const TICKETS = 4;
const LIST_COST = 0.4;
const TURNS = 3;
const ID_DIGITS = 3;
const PEOPLE = ['dana', 'lee', 'omar', 'kim', 'ravi', 'tess', 'ugo', 'vera'];

export const spec = {
  name: 'ticket-close',
  description: 'Close the ticket the message names. Tools: list_tickets({}) and close_ticket({"id": number}). One call per turn.',
  hint: 'list_tickets shows every open ticket with its owner.',
  maxTurns: TURNS,
};

export default class Env {
  reset(seed) {
    this.owners = kit.sample(PEOPLE, TICKETS);
    this.ids = this.owners.map(() => kit.randInt(10 ** (ID_DIGITS - 1), 10 ** ID_DIGITS - 1));
    this.target = kit.randInt(0, TICKETS - 1);
    this.listed = false;
    const who = this.owners[this.target];
    return {
      observation: `Message: please close ${who}'s ticket. Call list_tickets({}) or close_ticket({"id": number}).`,
      hint: `${who}'s ticket has id ${this.ids[this.target]}.`,
    };
  }
  step(action) {
    const call = kit.parseCall(action);
    if (call && call.name === 'list_tickets') {
      this.listed = true;
      return { observation: kit.table(['id', 'owner'], this.ids.map((id, i) => [id, this.owners[i]])), reward: 0, terminated: false };
    }
    if (!call || call.name !== 'close_ticket' || typeof call.args !== 'object' || call.args === null) {
      return { observation: 'Unknown call. Use list_tickets({}) or close_ticket({"id": number}). You lose.', reward: 0, terminated: true };
    }
    const ok = call.args.id === this.ids[this.target];
    const reward = ok ? (this.listed ? 1 - LIST_COST : 1) : 0;
    return { observation: ok ? 'Ticket closed.' : `Ticket ${String(call.args.id).slice(0, 20)} is not the one. You lose.`, reward, terminated: true };
  }
}

export function oracle(observation, history, hint) {
  // Hinted: the hint gives the id, so close at once; else list the tickets first and find the owner's row.
  const id = hint ? kit.parseNumber(hint) : null;
  if (id !== null) return `close_ticket({"id": ${id}})`;
  if (history.length === 0) return 'list_tickets({})';
  const who = history[0].observation.match(/close (\w+)'s/)[1];
  const row = observation.split('\n').find((line) => line.endsWith(`| ${who}`));
  return `close_ticket({"id": ${kit.parseNumber(row)}})`;
}
