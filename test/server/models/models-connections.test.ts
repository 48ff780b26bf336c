/**
 * Model connections (issue #41): registered by the project's coordinators (page) and the CLI; the key is
 * never returned nor stored in clear; what a page registration may reach (server-side request forgery):
 * public addresses only unless the operator lists the host; checked again at every connection.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { addModel, listModels, removeModel } from "../../../lib/server/models/connections";
import { decryptKey, encryptKey, KeyUnreadable, resolveKey } from "../../../lib/server/models/keys";
import { checkReachable, isPrivateAddress, openChannel, operatorAllowsPrivate, parseBaseUrl } from "../../../lib/server/models/net";
import { modelKeyVarProblem } from "../../../lib/config";
import { projectFixture } from "../../support/db";
import { startModelServer } from "../../support/model-server";

const PAGE = { name: "llama", kind: "ollama", baseUrl: "http://127.0.0.1:11434", model: "llama3.1:8b" };

// The server's secret from the environment: a key typed on the page is encrypted under it (and no secret file is written into the checkout).
const savedSecret = process.env.NEXTAUTH_SECRET;
beforeEach(() => {
  process.env.NEXTAUTH_SECRET = "a-secret-for-the-model-key-tests-0123456789";
});
afterEach(() => {
  delete process.env.LEXGOLD_MODEL_PRIVATE_HOSTS;
  if (savedSecret === undefined) delete process.env.NEXTAUTH_SECRET;
  else process.env.NEXTAUTH_SECRET = savedSecret;
});

describe("registering a model", () => {
  it("the CLI registers any address with an environment variable's name; the list shows the name, never a key", async () => {
    const f = projectFixture();
    const m = await addModel(f.db, SYSTEM, f.project.id, { ...PAGE, apiKeyEnv: "OPENAI_API_KEY", maxConcurrency: "8", timeoutS: "30" });
    expect(m).toMatchObject({ name: "llama", kind: "ollama", baseUrl: "http://127.0.0.1:11434", registeredFrom: "cli", key: { how: "env", name: "OPENAI_API_KEY" }, maxConcurrency: 8, timeoutS: 30 });
    expect(listModels(f.db, f.coord, f.project.id).map((x) => x.name)).toEqual(["llama"]);
  });

  it("a coordinator on the page: the key is stored encrypted and never shown", async () => {
    process.env.LEXGOLD_MODEL_PRIVATE_HOSTS = "127.0.0.1:11434";
    const f = projectFixture();
    const m = await addModel(f.db, f.coord, f.project.id, { ...PAGE, kind: "openai", baseUrl: "http://127.0.0.1:11434/v1", apiKey: "sk-secret-key-123" });
    expect(m.key).toEqual({ how: "stored" });
    expect(JSON.stringify(listModels(f.db, f.coord, f.project.id))).not.toContain("sk-secret");
    const stored = f.db.$client.prepare("select api_key_encrypted as k from models").get() as { k: string };
    expect(stored.k).toMatch(/^v1:/);
    expect(stored.k).not.toContain("sk-secret");
    expect(JSON.stringify(f.db.$client.prepare("select * from models").all())).not.toContain("sk-secret");
    expect(resolveKey({ apiKeyEnv: null, apiKeyEncrypted: stored.k })).toBe("sk-secret-key-123");
  });

  it.each([
    [{ name: "bad name!" }, "name"],
    [{ kind: "anthropic" }, "kind"],
    [{ baseUrl: "ftp://x" }, "baseUrl"],
    [{ baseUrl: "http://user:pw@127.0.0.1:1" }, "baseUrl"],
    [{ baseUrl: "http://127.0.0.1:1/?q=1" }, "baseUrl"],
    [{ model: "" }, "model"],
    [{ maxConcurrency: "0" }, "maxConcurrency"],
    [{ timeoutS: "9999" }, "timeoutS"],
    [{ apiKeyEnv: "NEXTAUTH_SECRET" }, "apiKeyEnv"],
    [{ apiKeyEnv: "LEXGOLD_DB" }, "apiKeyEnv"],
    [{ apiKeyEnv: "lower case" }, "apiKeyEnv"],
    [{ apiKey: "sk-typed" }, "apiKey"],
  ])("the CLI is refused %j on the field %s, and nothing is written", async (change, field) => {
    const f = projectFixture();
    await expect(addModel(f.db, SYSTEM, f.project.id, { ...PAGE, ...change })).rejects.toMatchObject({ status: 400, fieldErrors: { [field]: expect.any(String) } });
    expect(f.db.$client.prepare("select count(*) as n from models").get()).toEqual({ n: 0 });
  });

  it("a name is one model per project", async () => {
    const f = projectFixture();
    await addModel(f.db, SYSTEM, f.project.id, PAGE);
    await expect(addModel(f.db, SYSTEM, f.project.id, PAGE)).rejects.toMatchObject({ status: 400, fieldErrors: { name: "That name is taken." } });
  });

  it("the page may not name an environment variable (the server's keys would go to an address of the coordinator's)", async () => {
    process.env.LEXGOLD_MODEL_PRIVATE_HOSTS = "127.0.0.1";
    const f = projectFixture();
    await expect(addModel(f.db, f.coord, f.project.id, { ...PAGE, apiKeyEnv: "OPENAI_API_KEY" })).rejects.toMatchObject({ status: 400, fieldErrors: { apiKeyEnv: expect.any(String) } });
  });

  it("the page may not register loopback, private or link-local addresses unless the operator lists the host", async () => {
    const f = projectFixture();
    for (const baseUrl of ["http://127.0.0.1:11434", "http://localhost:11434", "http://[::1]:11434", "http://169.254.169.254", "http://10.1.2.3:8000/v1", "http://[::ffff:127.0.0.1]:80", "http://0.0.0.0:11434"]) {
      await expect(addModel(f.db, f.coord, f.project.id, { ...PAGE, baseUrl })).rejects.toMatchObject({ status: 400, fieldErrors: { baseUrl: expect.stringMatching(/this machine or a private network|cannot be resolved/) } });
    }
    process.env.LEXGOLD_MODEL_PRIVATE_HOSTS = "localhost:11434, [::1]";
    expect((await addModel(f.db, f.coord, f.project.id, { ...PAGE, baseUrl: "http://localhost:11434" })).privateAllowed).toBe(true);
    expect((await addModel(f.db, f.coord, f.project.id, { ...PAGE, name: "v6", baseUrl: "http://[::1]:8080" })).registeredFrom).toBe("page");
    await expect(addModel(f.db, f.coord, f.project.id, { ...PAGE, name: "other-port", baseUrl: "http://localhost:9999" })).rejects.toMatchObject({ status: 400 });
  });

  it("an annotator, another project's coordinator and nobody are refused", async () => {
    const f = projectFixture();
    await expect(addModel(f.db, f.ann, f.project.id, PAGE)).rejects.toMatchObject({ status: 403 });
    await expect(addModel(f.db, null, f.project.id, PAGE)).rejects.toMatchObject({ status: 401 });
  });

  it("removing a model takes its connection; an unknown name is 404", async () => {
    const f = projectFixture();
    await addModel(f.db, SYSTEM, f.project.id, PAGE);
    expect(removeModel(f.db, f.coord, f.project.id, "llama")).toEqual({ name: "llama", answers: 0, calls: 0 });
    expect(() => removeModel(f.db, f.coord, f.project.id, "llama")).toThrow(/No model named/);
  });
});

describe("where a model may be called", () => {
  it("private, loopback, link-local, reserved and mapped addresses are not public", () => {
    for (const a of ["127.0.0.1", "10.0.0.1", "172.20.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "64:ff9b::7f00:1"]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"]) expect(isPrivateAddress(a), a).toBe(false);
  });

  it("the operator's list names a host, or a host and port", () => {
    process.env.LEXGOLD_MODEL_PRIVATE_HOSTS = "gpu-box.lan:8000,127.0.0.1";
    expect(operatorAllowsPrivate("http://gpu-box.lan:8000/v1")).toBe(true);
    expect(operatorAllowsPrivate("http://gpu-box.lan:8001/v1")).toBe(false);
    expect(operatorAllowsPrivate("http://127.0.0.1:11434")).toBe(true);
    expect(operatorAllowsPrivate("https://api.openai.com/v1")).toBe(false);
  });

  it("a base URL is normalised; a bad one is explained", () => {
    expect(parseBaseUrl("http://127.0.0.1:11434/")).toEqual({ url: "http://127.0.0.1:11434" });
    expect(parseBaseUrl("https://api.openai.com/v1/")).toEqual({ url: "https://api.openai.com/v1" });
    expect(parseBaseUrl("not a url")).toHaveProperty("problem");
  });

  it("at call time: a loopback server is refused when the reach does not allow it (the address is checked as the socket connects)", async () => {
    const s = await startModelServer();
    try {
      const refused = openChannel({ baseUrl: s.url.replace("127.0.0.1", "localhost"), reach: { privateAllowed: false }, connections: 1, timeoutMs: 2000 });
      await expect(refused.fetch(`${s.url.replace("127.0.0.1", "localhost")}/api/chat`, { method: "POST", body: "{}" })).rejects.toMatchObject({ outcome: "refused" });
      const literal = openChannel({ baseUrl: s.url, reach: { privateAllowed: false }, connections: 1, timeoutMs: 2000 });
      await expect(literal.fetch(`${s.url}/api/chat`, { method: "POST", body: "{}" })).rejects.toMatchObject({ outcome: "refused" });
      expect(s.requests).toHaveLength(0);
      await Promise.all([refused.close(), literal.close()]);
      expect(await checkReachable(s.url, { privateAllowed: true })).toBeNull();
    } finally {
      await s.close();
    }
  });

  it("only URLs under the base URL are called", async () => {
    const s = await startModelServer();
    try {
      const ch = openChannel({ baseUrl: s.openaiBase, reach: { privateAllowed: true }, connections: 1, timeoutMs: 2000 });
      await expect(ch.fetch(`${s.url}/api/chat`, { method: "POST", body: "{}" })).rejects.toMatchObject({ outcome: "refused" });
      await expect(ch.fetch("http://169.254.169.254/latest/meta-data", {})).rejects.toMatchObject({ outcome: "refused" });
      expect(s.requests).toHaveLength(0);
      await ch.close();
    } finally {
      await s.close();
    }
  });
});

describe("keys", () => {
  it("a key encrypted under one secret is unreadable under another, and says what to do", () => {
    const c = encryptKey("sk-abc", "a".repeat(40));
    expect(decryptKey(c, "a".repeat(40))).toBe("sk-abc");
    expect(() => decryptKey(c, "b".repeat(40))).toThrow(KeyUnreadable);
    expect(encryptKey("sk-abc", "a".repeat(40))).not.toBe(c);
  });

  it("an environment variable is read where the call is made; unset is said so; lexgold's own settings are never keys", () => {
    expect(() => resolveKey({ apiKeyEnv: "LEXGOLD_TEST_MODEL_KEY_UNSET", apiKeyEncrypted: null })).toThrow(KeyUnreadable);
    expect(modelKeyVarProblem("NEXTAUTH_SECRET")).toMatch(/lexgold's own settings/);
    expect(modelKeyVarProblem("LEXGOLD_SECRET_FILE")).toMatch(/lexgold's own settings/);
    expect(modelKeyVarProblem("OPENAI_API_KEY")).toBeNull();
    process.env.TEST_MODEL_KEY = " sk-env ";
    expect(resolveKey({ apiKeyEnv: "TEST_MODEL_KEY", apiKeyEncrypted: null })).toBe("sk-env");
    delete process.env.TEST_MODEL_KEY;
    expect(resolveKey({ apiKeyEnv: null, apiKeyEncrypted: null })).toBeNull();
  });
});
