import { readFileSync } from 'node:fs';
import net from 'node:net';

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return (await freePorts(1, host))[0]!;
}

/**
 * The ports the kernel hands out for `listen(0)` and outgoing connections. A port chosen from
 * that range and released can be taken by any process's next `listen(0)` before its owner binds
 * it again; one chosen below it can only be taken by someone who names it.
 */
function ephemeralPortRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high && low > 12_000) return [low, high];
  } catch {
    /* not Linux: use the IANA dynamic range */
  }
  return [49_152, 65_535];
}

const CHOSEN_PORTS_FLOOR = 10_000;

function hold(port: number, host: string): Promise<net.Server | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(null));
    server.listen(port, host, () => resolve(server));
  });
}

/**
 * `count` distinct ports that were free a moment ago: all are held at once before any is
 * released, so none is chosen twice. They are drawn at random from below the ephemeral range, so
 * a process that binds port 0 meanwhile cannot take them; whoever binds them later may still
 * find one taken by someone who chose the same number, and must be ready to choose again.
 */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const [ephemeralLow] = ephemeralPortRange();
  const servers: net.Server[] = [];
  try {
    for (let tries = 0; servers.length < count; tries++) {
      const random = CHOSEN_PORTS_FLOOR + Math.floor(Math.random() * (ephemeralLow - CHOSEN_PORTS_FLOOR));
      // After many refusals (a crowded range), let the kernel choose, as before.
      const server = await hold(tries < 200 ? random : 0, host);
      if (server) servers.push(server);
    }
    return servers.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

/** Resolves once something accepts TCP connections on host:port, or rejects after `timeoutMs`. */
export async function waitForPort(host: string, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, host, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`Nothing listens on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
