/**
 * Issue #27, finding 4: the coordinator of project q resets the password of (or
 * disables) an annotator who is also in project p, signs in as them and writes
 * answers into p. A coordinator may reset or disable only accounts whose every
 * membership lies in projects they coordinate; anything wider needs an admin.
 */
import { describe, expect, it } from "vitest";
import { listAccounts, resetPassword, SHARED_ACCOUNT, setAccountDisabled } from "../../lib/server/people/accounts";
import { SYSTEM, type UserActor } from "../../lib/server/kernel/actor";
import { AuthError } from "../../lib/server/kernel/errors";
import { checkPassword } from "../../lib/server/people/passwords";
import { addMember, createUser } from "../../lib/server/people/users";
import { dump, world } from "./world";

/** The world, with p's annotator also a member of q (the CLI added them). */
function shared() {
  const w = world();
  addMember(w.db, SYSTEM, w.q.id, "ann");
  return w;
}

const hashOf = (w: ReturnType<typeof world>, id: number) => (w.db.$client.prepare("select password_hash as h from users where id = ?").get(id) as { h: string }).h;

describe("finding 4: no takeover of an annotator shared with another coordinator's project", () => {
  it("the other project's coordinator can neither reset the shared annotator's password nor disable them; nothing changes", async () => {
    const w = shared();
    const before = dump(w.db);
    await expect(resetPassword(w.db, w.coordQ, w.ann.userId)).rejects.toThrow(new AuthError(SHARED_ACCOUNT));
    expect(() => setAccountDisabled(w.db, w.coordQ, w.ann.userId, true)).toThrow(new AuthError(SHARED_ACCOUNT));
    // p's own coordinator is refused too: the account also writes into q.
    await expect(resetPassword(w.db, w.coord, w.ann.userId)).rejects.toThrow(new AuthError(SHARED_ACCOUNT));
    expect(dump(w.db)).toEqual(before);
    expect(await checkPassword("password-ann", hashOf(w, w.ann.userId))).toBe(true);
  });

  it("the Accounts page offers no reset or disable for it, and says why", () => {
    const w = shared();
    const row = listAccounts(w.db, w.coordQ).find((a) => a.name === "ann")!;
    expect(row).toMatchObject({ manageable: false, unmanageableReason: SHARED_ACCOUNT });
    // The coordinator's own annotator stays manageable.
    expect(listAccounts(w.db, w.coordQ).find((a) => a.name === "annq")).toMatchObject({ manageable: true, unmanageableReason: null });
  });

  it("an admin may, and so may a coordinator of every project the annotator is in", async () => {
    const w = shared();
    const admin = createUser(w.db, SYSTEM, { name: "root", role: "admin", password: "admin-river-lamp" });
    const adminActor: UserActor = { kind: "user", userId: admin.id, name: admin.name, role: "admin" };
    const { password } = await resetPassword(w.db, adminActor, w.ann.userId);
    expect(await checkPassword(password, hashOf(w, w.ann.userId))).toBe(true);
    // coordQ also coordinates p: every membership of ann now lies in their projects.
    addMember(w.db, SYSTEM, w.p.id, "coordq");
    expect(setAccountDisabled(w.db, w.coordQ, w.ann.userId, true)).toEqual({ name: "ann", disabled: true });
    expect(listAccounts(w.db, w.coordQ).find((a) => a.name === "ann")).toMatchObject({ manageable: true });
  });

  it("an unshared annotator is still the coordinator's to manage", async () => {
    const w = world();
    const { password } = await resetPassword(w.db, w.coord, w.ann.userId);
    expect(await checkPassword(password, hashOf(w, w.ann.userId))).toBe(true);
    expect(setAccountDisabled(w.db, w.coord, w.ann.userId, true).disabled).toBe(true);
  });

  it("joining another project while the new password is hashed still refuses the reset (checked again where it is written)", async () => {
    const w = world();
    const pending = resetPassword(w.db, w.coord, w.ann.userId);
    // The check passed synchronously; the account joins q before the hash is written.
    addMember(w.db, SYSTEM, w.q.id, "ann");
    await expect(pending).rejects.toThrow(new AuthError(SHARED_ACCOUNT));
    expect(await checkPassword("password-ann", hashOf(w, w.ann.userId))).toBe(true);
  });
});
