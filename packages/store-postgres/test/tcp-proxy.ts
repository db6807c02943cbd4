import net from 'node:net';

/**
 * An in-process TCP proxy between the store's pool and PostgreSQL, to simulate outages without
 * touching the shared server. Modes:
 * - `open`: forwards bytes both ways;
 * - `refuse`: the port is closed (connections are refused at once, like a stopped server);
 * - `drop`: connections are accepted and closed straight away (a server that crashes on connect);
 * - `blackhole`: connections are accepted and never answered (an unreachable host);
 * - `stall`: live connections stay open but no byte goes through either way, and new ones are
 *   accepted and never answered (a server or network that stops answering mid-call). Back to
 *   `open`, the stalled connections forward again.
 * Cutting (`refuse`, `drop`, `blackhole`) also destroys every live connection.
 */
export type ProxyMode = 'open' | 'refuse' | 'drop' | 'blackhole' | 'stall';

export interface TcpProxy {
  readonly port: number;
  set(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(upstream: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'open';
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'drop') {
      client.destroy();
      return;
    }
    if (mode === 'blackhole' || mode === 'stall') return;
    const server = net.connect(upstream.port, upstream.host);
    track(server);
    client.pipe(server).pipe(client);
    client.on('close', () => server.destroy());
    server.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));

  await listen(0);
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    async set(next) {
      if (next === 'stall') for (const socket of sockets) socket.pause();
      else if (next === 'open') for (const socket of sockets) socket.resume();
      else for (const socket of sockets) socket.destroy();
      if (next === 'refuse' && server.listening) await stop();
      if (next !== 'refuse' && !server.listening) await listen(port);
      mode = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      if (server.listening) await stop();
    },
  };
}
