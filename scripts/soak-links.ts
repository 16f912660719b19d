// Cuttable links between the chaos soak's cluster servers: one TCP proxy per ordered pair (server i dials server j's
// route port through proxy i→j), so a soak can cut every link of one server (a minority partition of one) and heal it,
// without touching the servers. Each server advertises an address nothing listens on, so no server can learn another's
// real route port by gossip and route around a cut (defensive: a run of the test without it held the cut too, as
// nats-server 2.9 does not reconnect a learnt route). Test: test/loop/cut-links-isolate-one-cluster-server-until-healed.
import { createServer, connect, type Server, type Socket } from 'node:net';

/** The route URL each server advertises: refused at once, so only the explicit (proxied) routes connect. */
export const UNREACHABLE_ROUTE = '127.0.0.1:1'; // host:port: nats-server 2.9 refuses a scheme here

interface Link {
  from: number;
  to: number;
  server: Server;
  sockets: Set<Socket>;
  cut: boolean;
}

export interface SoakLinks {
  /** The route URLs server `i` dials: one proxy per other server. */
  routesOf(i: number): string[];
  /** Cuts every link of server `i` (both directions) for `downMs`, then heals them; resolves once healed. */
  isolate(i: number, downMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Proxies for `count` servers whose route ports are `routePorts`; each listens on a free loopback port. */
export async function startSoakLinks(routePorts: number[]): Promise<SoakLinks> {
  const links: Link[] = [];
  for (const [from] of routePorts.entries())
    for (const [to, port] of routePorts.entries()) {
      if (from === to) continue;
      const link: Link = { from, to, server: createServer(), sockets: new Set(), cut: false };
      link.server.on('connection', (c) => {
        if (link.cut) return void c.destroy();
        const u = connect(port, '127.0.0.1');
        const end = (): void => {
          c.destroy();
          u.destroy();
          link.sockets.delete(c);
          link.sockets.delete(u);
        };
        for (const s of [c, u]) {
          link.sockets.add(s);
          s.on('error', end).on('close', end);
        }
        c.pipe(u);
        u.pipe(c);
      });
      await new Promise<void>((res) => link.server.listen(0, '127.0.0.1', res));
      links.push(link);
    }
  const url = (l: Link) => `nats://127.0.0.1:${(l.server.address() as { port: number }).port}`;
  return {
    routesOf: (i) => links.filter((l) => l.from === i).map(url),
    async isolate(i, downMs) {
      const mine = links.filter((l) => l.from === i || l.to === i);
      for (const l of mine) {
        l.cut = true;
        for (const s of l.sockets) s.destroy();
      }
      await new Promise((r) => setTimeout(r, downMs));
      for (const l of mine) l.cut = false;
    },
    async close() {
      for (const l of links) {
        l.cut = true;
        for (const s of l.sockets) s.destroy();
        await new Promise((r) => l.server.close(() => r(undefined)));
      }
    },
  };
}
