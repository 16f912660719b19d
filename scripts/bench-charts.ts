// `npm run bench:charts`: the dashboard's charting library against the baselines it was chosen over, in Debian's
// chromium (puppeteer-core): uPlot (the product's), Chart.js and Observable Plot (+ d3) from bench/. The workload is
// the dashboard's: 8 charts of 2 series each, drawn once, then updated live one point at a time. Prints per library
// the minified size it adds to every report (raw and gzip), the first draw and the median live update (median over
// BENCH_CHARTS_RUNS fresh pages), with ratios to uPlot, and ends with one JSON line. The decision: docs/dashboard.md.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import puppeteer from 'puppeteer-core';
import { repoPath } from '../runtime/paths.js';

const RUNS = Number(process.env.BENCH_CHARTS_RUNS ?? 5);
const POINTS = (process.env.BENCH_CHARTS_POINTS ?? '500,5000').split(',').map(Number);
const UPDATES = 30;
const CHARTS = 8;

const product = createRequire(import.meta.url);
// bench/'s packages by path: their package exports hide the prebuilt browser bundles from require.resolve.
const benchFile = (path: string) => repoPath('bench', 'node_modules', path);

interface Lib { name: string; files: string[]; version: string; draw: string; update: string }

const version = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;

// Each library's first draw (makes window.charts from window.data) and live update (appends a point, redraws).
const LIBS = (): Lib[] => [
  {
    name: 'uPlot', files: [product.resolve('uplot/dist/uPlot.iife.min.js')], version: version(product.resolve('uplot/package.json')),
    draw: `window.charts = data.map((d, i) => new uPlot({ width: 420, height: 220, scales: { x: { time: false } }, series: [{}, { stroke: 'blue' }, { stroke: 'red' }] }, d, boxes[i]));`,
    update: `charts.forEach((c, i) => c.setData(data[i]));`,
  },
  {
    name: 'Chart.js', files: [benchFile('chart.js/dist/chart.umd.min.js')], version: version(benchFile('chart.js/package.json')),
    draw: `window.charts = data.map((d, i) => { const c = document.createElement('canvas'); c.width = 420; c.height = 220; boxes[i].appendChild(c);
      return new Chart(c, { type: 'line', options: { animation: false, responsive: false, parsing: false, normalized: true, elements: { point: { radius: 0 } }, scales: { x: { type: 'linear' } } },
        data: { datasets: [1, 2].map((k) => ({ data: d[0].map((x, j) => ({ x, y: d[k][j] })), borderColor: k === 1 ? 'blue' : 'red', borderWidth: 1 })) } }); });`,
    update: `charts.forEach((c, i) => { const d = data[i], n = d[0].length - 1; c.data.datasets[0].data.push({ x: d[0][n], y: d[1][n] }); c.data.datasets[1].data.push({ x: d[0][n], y: d[2][n] }); c.update('none'); });`,
  },
  {
    name: 'Observable Plot', files: [benchFile('d3/dist/d3.min.js'), benchFile('@observablehq/plot/dist/plot.umd.min.js')], version: version(benchFile('@observablehq/plot/package.json')),
    draw: `window.plotOf = (d) => Plot.plot({ width: 420, height: 220, marks: [1, 2].map((k) => Plot.line(d[0], { x: (x) => x, y: (_, j) => d[k][j], stroke: k === 1 ? 'blue' : 'red' })) });
      window.charts = data.map((d, i) => boxes[i].appendChild(plotOf(d)));`,
    update: `charts.forEach((c, i) => { const p = plotOf(data[i]); c.replaceWith(p); charts[i] = p; });`,
  },
];

function page(lib: Lib, points: number): string {
  const scripts = lib.files.map((f) => `<script>${readFileSync(f, 'utf8')}</script>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"></head><body>${scripts}<script>
    window.boxes = Array.from({ length: ${CHARTS} }, () => document.body.appendChild(document.createElement('div')));
    window.data = Array.from({ length: ${CHARTS} }, (_, c) => { const x = [], a = [], b = []; for (let i = 0; i < ${points}; i++) { x.push(i); a.push(Math.sin(i / 50 + c)); b.push(Math.cos(i / 70 + c)); } return [x, a, b]; });
  </script></body></html>`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const settle = `new Promise((r) => setTimeout(r, 0))`;

async function main(): Promise<void> {
  const browser = await puppeteer.launch({ executablePath: process.env.SPADE_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const results: Array<{ library: string; version: string; points: number; bytes: number; gzipBytes: number; drawMs: number; updateMs: number }> = [];
  try {
    for (const points of POINTS)
      for (const lib of LIBS()) {
        const draws: number[] = [], updates: number[] = [];
        for (let r = 0; r < RUNS; r++) {
          const p = await browser.newPage();
          await p.setContent(page(lib, points), { waitUntil: 'load' });
          draws.push((await p.evaluate(`(async () => { const t0 = performance.now(); ${lib.draw}; document.body.offsetHeight; await ${settle}; return performance.now() - t0; })()`)) as number);
          const times = (await p.evaluate(`(async () => { const ts = []; for (let u = 0; u < ${UPDATES}; u++) {
            for (const d of data) { const n = d[0].length; d[0].push(n); d[1].push(Math.sin(n / 50)); d[2].push(Math.cos(n / 70)); }
            const t0 = performance.now(); ${lib.update}; document.body.offsetHeight; await ${settle}; ts.push(performance.now() - t0); } return ts; })()`)) as number[];
          updates.push(median(times));
          await p.close();
        }
        const text = lib.files.map((f) => readFileSync(f)).reduce((a, b) => Buffer.concat([a, b]), Buffer.alloc(0));
        results.push({ library: lib.name, version: lib.version, points, bytes: text.length, gzipBytes: gzipSync(text).length, drawMs: median(draws), updateMs: median(updates) });
      }
  } finally {
    await browser.close();
  }
  console.log(`charts: ${CHARTS} charts × 2 series, first draw and live update (one point per series), median of ${RUNS} pages (update: median of ${UPDATES} within each)`);
  console.log('points  library          version   min.js KiB  gzip KiB  draw ms  ×uPlot  update ms  ×uPlot');
  for (const r of results) {
    const base = results.find((b) => b.library === 'uPlot' && b.points === r.points)!;
    console.log(`${String(r.points).padEnd(7)} ${r.library.padEnd(16)} ${r.version.padEnd(9)} ${(r.bytes / 1024).toFixed(0).padStart(10)} ${(r.gzipBytes / 1024).toFixed(0).padStart(9)} ${r.drawMs.toFixed(1).padStart(8)} ${(r.drawMs / base.drawMs).toFixed(1).padStart(7)} ${r.updateMs.toFixed(2).padStart(10)} ${(r.updateMs / base.updateMs).toFixed(1).padStart(7)}`);
  }
  console.log(JSON.stringify({ bench: 'charts', runs: RUNS, charts: CHARTS, results }));
}

await main();
