import { spawn } from "node:child_process";

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command to its end, collecting its output (asynchronously, so several can run at once). */
export function runCommand(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, options);
    let stdout = "";
    let stderr = "";
    p.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    p.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    p.on("error", reject);
    p.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
