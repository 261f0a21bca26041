// A free loopback port, for every server a script, the test setup or a benchmark starts.
import { createServer } from "node:net";

/** A port nobody listens on now, on loopback (a race with other programs is possible, and unlikely there). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}
