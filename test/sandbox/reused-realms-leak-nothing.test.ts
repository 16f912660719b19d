// A realm hosts many episodes in turn: module-level state starts over with each episode, globals cannot be
// created or changed, so a pool that reuses realms gives exactly what a pool with a fresh runtime per episode gives.
import t from 'tap';
import { SandboxPool } from '../../sandbox/index.js';

const ENV = `export const spec = { name: "leaky", description: "d", hint: "h", maxTurns: 3 };
let episodes = 0;
const atLoad = Math.random();
const memo = [];
export default class Env {
  reset(seed) {
    episodes++;
    memo.push(seed);
    let leaked = 'none';
    try { globalThis.carry = (globalThis.carry ?? 0) + 1; leaked = 'global'; } catch (e) { leaked = 'blocked'; }
    try { Array.prototype.extra = 1; leaked += '+proto'; } catch (e) { leaked += '+protoBlocked'; }
    return { observation: [episodes, memo.length, atLoad, Math.random(), leaked, typeof globalThis.carry].join(' ') };
  }
  step(a) { return { observation: String(episodes), reward: 0, terminated: true }; }
}`;

t.test('reused realms and fresh runtimes agree episode after episode', async (t) => {
  const reused = new SandboxPool({ workers: 1, callTimeoutMs: 500 });
  const fresh = new SandboxPool({ workers: 1, callTimeoutMs: 500, episodesPerRealm: 1 });
  t.teardown(async () => {
    await reused.close();
    await fresh.close();
  });
  for (let i = 0; i < 80; i++) {
    const seed = i % 5;
    const a = await reused.reset({ code: ENV, seed });
    const b = await fresh.reset({ code: ENV, seed });
    t.equal(a.observation, b.observation, `episode ${i}`);
    t.match(a.observation, /^1 1 \S+ \S+ blocked\+protoBlocked undefined$/, 'module state starts over, globals stay frozen');
  }
});
