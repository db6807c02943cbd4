import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { invalidInput, type Memory, type Principal } from '@strata-memory/core';
import { errorBody, statusOf } from './http-errors.ts';
import { ROUTES } from './routes.ts';
import { staticFile } from './static-files.ts';

export interface InspectorOptions {
  memory: Memory;
  /** Who the inspector reads and writes as; its id is the actor of every audited write. */
  principal: Principal;
  /** What `GET /api/info` tells the page: the store and the scope to open on. */
  info: { store: string; scope?: string };
  /** Defaults to a random free port. */
  port?: number;
  /** Defaults to 32 random bytes, hex. */
  token?: string;
}

export interface Inspector {
  /** `http://127.0.0.1:<port>/?token=<token>`: the page, with the token it needs. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const MAX_BODY_BYTES = 1024 * 1024;
const HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // Everything the page loads comes from this server; the import map is an inline script.
  'content-security-policy':
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
};

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { ...HEADERS, 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw invalidInput(`the request body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw invalidInput('the request body is not valid JSON');
  }
}

/**
 * Serves the inspector: the page (public files) and its JSON API under `/api/`, which answers only
 * requests carrying the token (`x-strata-token` header or `token` query parameter), else 401.
 * Bound to 127.0.0.1; a request naming another host (DNS rebinding) is refused.
 */
export async function startInspector(options: InspectorOptions): Promise<Inspector> {
  const token = options.token ?? randomBytes(32).toString('hex');
  let port = 0;
  const server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', `http://${HOST}`);
      const host = request.headers.host ?? '';
      if (host !== `${HOST}:${port}` && host !== `localhost:${port}`) {
        send(response, 421, {
          error: { code: 'wrong_host', message: `this server answers ${HOST}:${port}` },
        });
        return;
      }
      if (url.pathname.startsWith('/api/')) {
        const given = request.headers['x-strata-token'] ?? url.searchParams.get('token') ?? undefined;
        if (!sameToken(Array.isArray(given) ? given[0] : given, token)) {
          send(response, 401, {
            error: {
              code: 'unauthorized',
              message: 'missing or wrong token: open the URL strata inspect printed',
            },
          });
          return;
        }
        if (request.method === 'GET' && url.pathname === '/api/info') {
          send(response, 200, { ...options.info, principal: options.principal.id });
          return;
        }
        const route = ROUTES[`${request.method} ${url.pathname}`];
        if (route === undefined) {
          const known = Object.keys(ROUTES).some((key) => key.endsWith(` ${url.pathname}`));
          send(response, known ? 405 : 404, {
            error: {
              code: known ? 'method_not_allowed' : 'not_found',
              message: `no route ${request.method} ${url.pathname}`,
            },
          });
          return;
        }
        const query = Object.fromEntries(url.searchParams);
        delete query.token;
        const body = request.method === 'POST' ? await readJson(request) : undefined;
        send(
          response,
          200,
          await route({ memory: options.memory, principal: options.principal, query, body }),
        );
        return;
      }
      if (url.pathname === '/favicon.ico') {
        response.writeHead(204, HEADERS).end();
        return;
      }
      const file = request.method === 'GET' ? await staticFile(url.pathname) : undefined;
      if (file === undefined) {
        send(response, 404, { error: { code: 'not_found', message: `no page ${url.pathname}` } });
        return;
      }
      response.writeHead(200, { ...HEADERS, 'content-type': file.type });
      response.end(file.body);
    } catch (error) {
      send(response, statusOf(error), errorBody(error));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES'
          ? invalidInput(
              `cannot listen on port ${options.port}: ${error.code === 'EADDRINUSE' ? 'it is in use' : 'not allowed'}`,
              {
                port: options.port,
              },
            )
          : error,
      );
    });
    server.listen(options.port ?? 0, HOST, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${HOST}:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
