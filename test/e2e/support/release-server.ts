/**
 * A loopback HTTP server standing in for the GitHub release: it serves the
 * files at the top of a release directory by name and counts the requests
 * for each path, so a test can tell the engine fetched the plugin from it.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

export interface ReleaseServer {
  url: string;
  /** Requests received per path, whatever was answered. */
  requests: Map<string, number>;
  close(): Promise<void>;
}

export async function serveRelease(dir: string): Promise<ReleaseServer> {
  const files = new Set(readdirSync(dir).filter((name) => statSync(join(dir, name)).isFile()));
  const requests = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const name = decodeURIComponent(path.slice(1));
    if (req.method !== "GET" || !files.has(name)) {
      res.writeHead(404).end();
      return;
    }
    const body = readFileSync(join(dir, name));
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
