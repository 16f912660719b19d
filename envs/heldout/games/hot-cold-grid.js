// Held-out game (new, medium): dig for a treasure on a 5x5 field; each miss tells the walking distance to it.
const SIZE = 5; // difficulty knob (with DIGS): the field size
const DIGS = 4;

export const spec = {
  name: 'hot-cold-grid',
  description: `A treasure is buried in one cell of a ${SIZE}x${SIZE} field (rows and columns 1-${SIZE}). Dig by answering "row column", e.g. "2 4". A miss tells you how many steps (up/down plus left/right) the treasure is away. ${DIGS} digs.`,
  hint: 'Dig two corners of the same row first: the two distances pin the treasure down to a single cell, because their sum and difference give its row and its column.',
  maxTurns: DIGS,
};

export default class Env {
  reset(seed) {
    this.r = kit.randInt(1, SIZE);
    this.c = kit.randInt(1, SIZE);
    this.left = DIGS;
    return { observation: `Dig somewhere: answer "row column". Digs left: ${DIGS}.` };
  }
  step(action) {
    const [r, c] = kit.parseNumbers(String(action).slice(0, 100));
    this.left -= 1;
    if (r === this.r && c === this.c) return { observation: 'You found the treasure!', reward: 1, terminated: true };
    const ok = Number.isInteger(r) && Number.isInteger(c) && r >= 1 && r <= SIZE && c >= 1 && c <= SIZE;
    const clue = ok ? `Row ${r}, column ${c}: the treasure is ${Math.abs(r - this.r) + Math.abs(c - this.c)} steps away.` : 'Not a cell of the field.';
    if (this.left === 0) return { observation: `${clue} No digs left.`, reward: 0, terminated: true };
    return { observation: `${clue} Digs left: ${this.left}.`, reward: 0, terminated: false };
  }
}

export function oracle(observation, history) {
  if (history.length === 0) return '1 1';
  if (history.length === 1) return `1 ${SIZE}`;
  const replies = history.slice(1).map((h) => h.observation).concat(observation);
  const d1 = kit.parseNumbers(replies[0])[2], d2 = kit.parseNumbers(replies[1])[2];
  // d1 = (r-1) + (c-1) and d2 = (r-1) + (SIZE-c)
  const r = (d1 + d2 - SIZE + 3) / 2, c = (d1 - d2 + SIZE + 1) / 2;
  return `${r} ${c}`;
}
