import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { requireUserPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { accountAuditLog, failedSignIns, listAccounts, ACCOUNT_CEILING, signInLocks } from "@/lib/server/people";
import { AccountActions, LiftLockButton } from "./account-forms";

export const metadata: Metadata = { title: "Accounts" };
export const dynamic = "force-dynamic";

const when = (d: Date) => d.toISOString().replace("T", " ").slice(0, 19) + " UTC";

const ACTIONS: Record<string, string> = {
  create: "created",
  "password-change": "changed own password",
  "password-reset": "reset password",
  disable: "disabled",
  enable: "re-enabled",
  "member-remove": "removed from project",
  "member-add": "added to project",
  "member-role": "role in project changed",
  "sign-out": "signed out",
  "sign-in-unlock": "sign-in lock lifted",
};

/** Coordinators: the accounts of their projects; admins: every account. Failed sign-ins and the audit below. */
export default async function AccountsPage() {
  const actor = await requireUserPage();
  if (actor.role !== "coordinator" && actor.role !== "admin") redirect("/annotate");
  const db = getDb();
  const accounts = listAccounts(db, actor);
  const locks = signInLocks(db, actor, accounts);
  const failures = failedSignIns(db, actor, { limit: 100 });
  const audit = accountAuditLog(db, actor, { limit: 50 });
  return (
    <>
      <h1>Accounts</h1>
      <p className="muted">
        {actor.role === "admin" ? "Every account on this server." : "The accounts of your projects. You manage their annotators who are in your projects only; admins manage coordinators and annotators shared with other projects."}
      </p>
      <div className="table-wrap">
        <table aria-labelledby="accounts-heading">
          <caption id="accounts-heading" className="muted small">Accounts ({accounts.length})</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Projects</th>
              <th scope="col">Status</th>
              <th scope="col">Manage</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((a) => (
              <tr key={a.id}>
                <th scope="row">{a.name}</th>
                <td><span className="tag">{a.role}</span></td>
                <td>{a.projects.map((p) => p.name).join(", ") || <span className="muted">—</span>}</td>
                <td>
                  {a.disabled ? <strong>disabled</strong> : "active"}
                  {locks.has(a.id) && (
                    <div className="small">
                      {locks.get(a.id)!.locked ? <strong>sign-in locked for new browsers</strong> : "sign-in slowed"}: {locks.get(a.id)!.failures} failed
                      {locks.get(a.id)!.failures === 1 ? " sign-in" : " sign-ins"} in the last hour
                      <LiftLockButton userId={a.id} name={a.name} />
                    </div>
                  )}
                </td>
                <td>
                  {a.manageable ? (
                    <AccountActions userId={a.id} name={a.name} disabled={a.disabled} />
                  ) : a.unmanageableReason ? (
                    <span className="muted small">{a.unmanageableReason}</span>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2 id="failures-heading">Failed sign-ins</h2>
      <p className="muted small">
        The last {failures.length === 100 ? "100" : failures.length} failed sign-ins{actor.role === "admin" ? "" : " for these accounts"}, newest first. “Known browser”:
        the browser had signed in to that account before, so strangers&rsquo; failures do not slow it down. After five failures in an
        hour, further tries for an account from the same address (or known browser) wait 1 s, 2 s, 4 s … (at most 15 minutes);
        after {ACCOUNT_CEILING} failures in an hour from anywhere, the account&rsquo;s sign-in is locked for browsers that never signed in to it (its own browsers still get in) until they age out or you lift the lock.
      </p>
      {failures.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <div className="table-wrap">
          <table aria-labelledby="failures-heading">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Name typed</th>
                <th scope="col">From</th>
                <th scope="col">Browser</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {failures.map((f, i) => (
                <tr key={i}>
                  <td className="nowrap">{when(f.at)}</td>
                  <th scope="row">{f.name}</th>
                  <td><code>{f.client}</code></td>
                  <td>{f.knownDevice ? "known browser" : "unknown"}</td>
                  <td>{f.throttled ? "refused: too many failures (not checked)" : "wrong name or password"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2 id="audit-heading">Account changes</h2>
      {audit.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <div className="table-wrap">
          <table aria-labelledby="audit-heading">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Account</th>
                <th scope="col">Change</th>
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {audit.map((e, i) => (
                <tr key={i}>
                  <td className="nowrap">{when(e.at)}</td>
                  <th scope="row">{e.target ?? "—"}</th>
                  <td>
                    {ACTIONS[e.action] ?? e.action}
                    {e.project ? ` (${e.project})` : ""}
                  </td>
                  <td>{e.actor ?? "command line"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
