// A loopback TCP proxy that can be switched off and on: the service "goes away" and comes back
// on the same address, as when the network drops.
import { connect, createServer, type Server, type Socket } from "node:net";

/** A switchable proxy in front of a local service. */
export interface NetProxy {
  url: string;
  /** Closes the listener and every connection through it. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
}

/** Starts a proxy to `target` (an http://127.0.0.1:PORT URL) on a free loopback port. */
export async function startProxy(target: string): Promise<NetProxy> {
  const to = new URL(target);
  const sockets = new Set<Socket>();
  const make = (): Server =>
    createServer((client) => {
      const upstream = connect(Number(to.port), to.hostname);
      sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on("error", drop).on("close", drop);
      upstream.on("error", drop).on("close", drop);
      client.pipe(upstream).pipe(client);
    });
  let server = make();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        const a = server.address();
        resolve(typeof a === "object" && a ? a.port : port);
      });
    });
  const port = await listen(0);
  return {
    url: `http://127.0.0.1:${port}`,
    async down() {
      for (const s of sockets) s.destroy();
      sockets.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async up() {
      server = make();
      await listen(port);
    },
  };
}
