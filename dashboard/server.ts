// The dashboard's HTTP server (node's own http: four JSON routes, the assets and one server-sent-event stream need no
// framework). The page loads the overview once, then gets a fresh one on every change, at most every `pushEveryMs`.
//   GET /                      the page          GET /assets/<name>     uPlot, the page's script and stylesheet
//   GET /api/overview          figures, curves, environment table
//   GET /api/env/<envId>       one environment: code, document, lineage, episodes
//   GET /api/episode/<trajId>  one episode turn by turn
//   GET /events                text/event-stream of `overview` events
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { EpisodeView } from './bus-source.js';
import { DashboardServeError } from './errors.js';
import { ASSETS, livePage } from './page.js';
import type { Overview, RunModel } from './run-model.js';

/** What the server shows: a model, and episodes read on demand. */
export interface DashboardData {
  model: RunModel;
  live: () => boolean;
  episode(trajId: string): Promise<EpisodeView | null>;
  onChange(f: () => void): () => void;
}

export interface DashboardServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function serveDashboard(data: DashboardData, opts: { host: string; port: number; pushEveryMs?: number }): Promise<DashboardServer> {
  const pushEveryMs = opts.pushEveryMs ?? 1000;
  const clients = new Set<ServerResponse>();
  const overview = (): Overview => data.model.overview(Date.now(), data.live());
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  let pending: NodeJS.Timeout | null = null;
  let lastPush = 0;
  const push = () => {
    pending = null;
    lastPush = Date.now();
    if (clients.size === 0) return;
    const line = `event: overview\ndata: ${JSON.stringify(overview())}\n\n`;
    for (const c of clients) c.write(line);
  };
  const unsubscribe = data.onChange(() => {
    if (pending) return;
    pending = setTimeout(push, Math.max(0, lastPush + pushEveryMs - Date.now()));
  });
  // The run's clock moves even when no event arrives (elapsed time, throughput).
  const tick = setInterval(() => data.live() && push(), Math.max(pushEveryMs, 2000));
  tick.unref();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (req.method !== 'GET') return json(res, 405, { error: 'read-only: GET only' });
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(livePage(`SPADE — ${data.model.source}`));
    }
    if (path.startsWith('/assets/')) {
      const a = Object.hasOwn(ASSETS, path.slice(8)) ? ASSETS[path.slice(8)] : undefined;
      if (!a) return json(res, 404, { error: `no asset ${path}` });
      res.writeHead(200, { 'content-type': a.type, 'cache-control': 'max-age=3600' });
      return void res.end(readFileSync(a.file()));
    }
    if (path === '/api/overview') return json(res, 200, overview());
    if (path.startsWith('/api/env/')) {
      const d = data.model.env(path.slice(9));
      return d ? json(res, 200, d) : json(res, 404, { error: `no environment ${path.slice(9)}` });
    }
    if (path.startsWith('/api/episode/')) {
      const e = await data.episode(path.slice(13));
      return e ? json(res, 200, e) : json(res, 404, { error: `no episode ${path.slice(13)}` });
    }
    if (path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(`retry: 2000\nevent: overview\ndata: ${JSON.stringify(overview())}\n\n`);
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    json(res, 404, { error: `no route ${path}` });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) json(res, 500, { error: err.message });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new DashboardServeError(`cannot listen on ${opts.host}:${opts.port}: ${err.message}`, `${opts.host}:${opts.port}`, err)));
    server.listen(opts.port, opts.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}/`,
    server,
    async close() {
      unsubscribe();
      clearInterval(tick);
      if (pending) clearTimeout(pending);
      for (const c of clients) c.end();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
