// Memory probe for docs/reliability.md (resource limits): preload with
//   MEMPROBE_OUT=probe.jsonl node --require ./scripts/memory-probe.cjs runtime/start.js --role all ...
// It runs in the main thread and in every worker thread and appends process.memoryUsage() per thread every
// MEMPROBE_MS (2000) ms, plus which script each worker runs. Measurement only; nothing in the runtime loads it.
const fs = require('node:fs');
const wt = require('node:worker_threads');
const v8 = require('node:v8');
const out = process.env.MEMPROBE_OUT;
if (out) {
  const tid = wt.threadId;
  if (wt.isMainThread) {
    const Orig = wt.Worker;
    class Worker extends Orig {
      constructor(file, opts) {
        super(file, opts);
        try { fs.appendFileSync(out, JSON.stringify({ t: Date.now(), spawn: String(file), tid: this.threadId }) + '\n'); } catch {}
        this.once('exit', () => { try { fs.appendFileSync(out, JSON.stringify({ t: Date.now(), exit: this.threadId }) + '\n'); } catch {} });
      }
    }
    wt.Worker = Worker;
    require('node:module').syncBuiltinESMExports();
  }
  const every = Number(process.env.MEMPROBE_MS || 2000);
  const tick = () => {
    const m = process.memoryUsage();
    const h = v8.getHeapStatistics();
    try { fs.appendFileSync(out, JSON.stringify({ t: Date.now(), tid, rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, malloced: h.malloced_memory, native: h.number_of_native_contexts }) + '\n'); } catch {}
  };
  tick();
  setInterval(tick, every).unref();
}
