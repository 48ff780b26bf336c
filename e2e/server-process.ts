/**
 * A lexgold server process of a spec's own (the production start, not the demo
 * server the other specs share): a spare loopback port, the process started and
 * waited for until /signin answers, its output collected, and stopped with
 * SIGTERM (what systemd sends). Used by production.spec.ts and
 * readonly-checkout.spec.ts.
 */
import { type ChildProcess, spawn, type SpawnOptions } from "node:child_process";
import net from "node:net";

export function spareLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

export interface ServerProcess {
  child: ChildProcess;
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  output(): string;
}

/**
 * Spawn `cmd args` and resolve once `base`/signin answers 200; reject with the
 * process's output when it exits first or does not answer within two minutes.
 */
export async function startServer(cmd: string, args: string[], base: string, options: SpawnOptions): Promise<ServerProcess> {
  const child = spawn(cmd, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (c) => (out += c));
  child.stderr!.on("data", (c) => (out += c));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const up = await fetch(`${base}/signin`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { child, output: () => out };
    if (child.exitCode !== null || Date.now() > deadline) {
      if (child.exitCode === null) child.kill("SIGTERM");
      throw new Error(`the server did not come up:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** SIGTERM the process if it still runs and wait for it to exit; the exit code (null when killed by the signal). */
export async function stopServer(child: ChildProcess | null | undefined): Promise<number | null> {
  if (!child) return null;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
  child.kill("SIGTERM");
  return exited;
}
