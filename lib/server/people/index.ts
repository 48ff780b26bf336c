/**
 * lib/server/people: Accounts, members and sign-in: who may do what is checked here (account managers, coordinators
 * of the project, the signed-in user for their own password).
 *
 * app/ imports lib/server only through these indexes (.dependency-cruiser.cjs,
 * app-to-server-through-feature-index). The functions here take the actor and check it;
 * the few that do not say why. Functions that take `db` and no actor stay inside lib/server.
 */
export { accountAuditLog, changeOwnPassword, failedSignIns, listAccounts, removeMember, resetPassword, setAccountDisabled } from "./accounts";
export { liftSignInLock, signInLocks } from "./signin";
// Without an actor: a setting shown on the accounts page.
export { ACCOUNT_CEILING } from "./signin";
export { addExistingMember, createAnnotatorForProject, setGuidelines, setRequiredAnnotators, type TeamMember, teamOverview, type TeamView } from "./team";
export { listMembers, setMemberRole } from "./users";
// For other features of lib/server (#43: a feature reaches another only through its index). They take the
// database and no actor: each caller has checked who asks.
export { DEMO_PASSWORD } from "./passwords";
export { addMember, createUser, newUserSchema, type PublicUser } from "./users";
