// The HTML of the page, live or self-contained. The dashboard serves its assets itself (uPlot from node_modules, the
// page's script and stylesheet from dashboard/assets/); a report inlines the same files and its data, so one file
// opens anywhere without a network.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { repoPath } from '../runtime/paths.js';

const require = createRequire(import.meta.url);

/** The files the page needs, by the name the live page asks for them. */
export const ASSETS: Readonly<Record<string, { file: () => string; type: string }>> = {
  'uPlot.iife.min.js': { file: () => require.resolve('uplot/dist/uPlot.iife.min.js'), type: 'text/javascript; charset=utf-8' },
  'uPlot.min.css': { file: () => require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css; charset=utf-8' },
  'app.js': { file: () => repoPath('dashboard', 'assets', 'app.js'), type: 'text/javascript; charset=utf-8' },
  'style.css': { file: () => repoPath('dashboard', 'assets', 'style.css'), type: 'text/css; charset=utf-8' },
};

export const assetText = (name: string): string => readFileSync(ASSETS[name]!.file(), 'utf8');

/** JSON that is safe inside a <script> element (no `</script>`, no line separators that end a JS string). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const head = (title: string, styles: string) =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>${escapeHtml(title)}</title>${styles}</head>`;
const body = `<body><header><h1>SPADE</h1><span class="live">…</span><span class="source"></span></header><main></main>`;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** The live page: assets by relative URL, served by the dashboard. */
export function livePage(title: string): string {
  return `${head(title, '<link rel="stylesheet" href="assets/uPlot.min.css"><link rel="stylesheet" href="assets/style.css">')}${body}` +
    '<script src="assets/uPlot.iife.min.js"></script><script src="assets/app.js"></script></body></html>\n';
}

/** A self-contained page: every asset and the data inline. */
export function inlinePage(title: string, data: unknown): string {
  // A stylesheet or script holding `</style>`/`</script>` would end its element early; none of ours does.
  const styles = `<style>${assetText('uPlot.min.css')}</style><style>${assetText('style.css')}</style>`;
  return `${head(title, styles)}${body}<script id="spade-data" type="application/json">${scriptJson(data)}</script>` +
    `<script>${assetText('uPlot.iife.min.js')}</script><script>${assetText('app.js')}</script></body></html>\n`;
}
