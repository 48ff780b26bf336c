import { Server, freePort } from "./lib/server";
import { signIn } from "./lib/auth";
const prof = process.argv[2] ?? "";
const pages = (process.argv[3] ?? "scoring,gold,agreement").split(",");
for (let round = 0; round < 2; round++) {
  const server = new Server({ distDir: ".next-e2e", dbFile: "/tmp/p/fl/f.db", secretFile: "/tmp/p/fl/secret", port: await freePort(), nodeArgs: prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : [] });
  await server.start();
  const cookie = await signIn(server.base, "loadcoord", "load-test-password");
  const out: string[] = [];
  for (const pg of pages) {
    for (let k = 0; k < 3; k++) {
      const t = performance.now();
      const r = await fetch(`${server.base}/projects/1/${pg}`, { headers: { Cookie: cookie } });
      await r.text();
      out.push(`${pg}#${k} ${r.status} ${Math.round(performance.now() - t)}`);
    }
  }
  console.log(`round ${round}:`, out.join(" | "));
  await server.stop();
}
