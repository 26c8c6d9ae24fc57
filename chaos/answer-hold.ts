/**
 * A TCP proxy in front of one API that can hold back the API's answers. Killing the API while
 * its answers are held is, to the client, exactly a server that died after committing and
 * before its answer reached the wire, at a moment chosen rather than hoped for: the client sees
 * its connection reset and retries the very same request elsewhere.
 */
import net, { type Socket } from 'node:net';

interface Pair {
  client: Socket;
  upstream: Socket;
  held: Buffer[];
}

export class AnswerHoldingProxy {
  private holding = false;
  private readonly pairs = new Set<Pair>();

  private readonly server: net.Server;
  readonly url: string;

  private constructor(server: net.Server, url: string) {
    this.server = server;
    this.url = url;
  }

  static async start(upstreamPort: number): Promise<AnswerHoldingProxy> {
    const server = net.createServer((client) => proxy.connect(client, upstreamPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new AnswerHoldingProxy(server, `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
    return proxy;
  }

  /** From now on, every byte the API sends is kept back. */
  hold(): void {
    this.holding = true;
  }

  /** Resets every connection with an answer held back (never delivered), and lets answers through again. */
  dropHeld(): number {
    let dropped = 0;
    for (const pair of this.pairs) {
      if (pair.held.length === 0) continue;
      dropped++;
      pair.client.resetAndDestroy();
      pair.upstream.destroy();
    }
    this.holding = false;
    return dropped;
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise((resolve) => this.server.close(resolve));
  }

  private connect(client: Socket, upstreamPort: number): void {
    const upstream = net.connect(upstreamPort, '127.0.0.1');
    const pair: Pair = { client, upstream, held: [] };
    this.pairs.add(pair);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (this.holding || pair.held.length > 0) pair.held.push(chunk);
      else client.write(chunk);
    });
    const end = () => {
      this.pairs.delete(pair);
      // A connection refused or reset upstream is reset to the client too, as it would be direct.
      if (pair.held.length > 0 || upstream.errored) client.resetAndDestroy();
      else client.end();
    };
    upstream.on('close', end);
    upstream.on('error', () => {});
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  }
}
