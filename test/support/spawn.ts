import { spawn } from "node:child_process";

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command to its end, collecting its output (asynchronously, so several can run at once); `input` is piped to its stdin. */
export function runCommand(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string | Buffer } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const { input, ...spawnOptions } = options;
    const p = spawn(cmd, args, spawnOptions);
    if (input !== undefined) {
      p.stdin.on("error", () => {});
      p.stdin.end(input);
    }
    let stdout = "";
    let stderr = "";
    p.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    p.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    p.on("error", reject);
    p.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
