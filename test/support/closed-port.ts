/**
 * Local ports for a service that is not there, or not there yet. Each is
 * below the range the kernel hands out for `listen(0)` and outgoing
 * connections (/proc/sys/net/ipv4/ip_local_port_range), the range where every
 * emulator and server of the suite listens. So no other test file's server can
 * take the port between this call and its use. A port from `listen(0)`,
 * closed again, could be handed to the next server that any test starts.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** The lowest port of the kernel's ephemeral range (32768 where it cannot be read). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A local port nothing listens on, outside the ephemeral range: free for a server a test starts on it. */
export async function unusedPort(): Promise<number> {
  const low = ephemeralLow();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free local port between 10000 and ${low - 1} after 50 tries`);
}

/** A local port nothing listens on: a service that cannot be reached. */
export const closedPort = unusedPort;
