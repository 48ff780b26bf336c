/**
 * Every form of the app works without JavaScript (#38): the production build served as `lexgold
 * start` serves it, each page rendered for the role that uses it (signed out for the sign-in and a
 * study's page), and each form sent as a browser sends it before hydration or without JavaScript —
 * a server action's form multipart with its own `$ACTION_…` fields, an upload multipart to its
 * route, a sign-in form to next-auth's callback with the CSRF token the page holds — and the
 * answer (the page with the outcome, or a redirect to it) and the change made asserted; afterwards
 * the server still answers.
 *
 * The answer is waited for at most ANSWER_MS: a guard against a hang (a form used to wedge its
 * server process for good), never a measure of speed.
 *
 * The last tests go through the app's pages: every form found must be one posted here (a GET form
 * is sent and answers its page), and none may be a form only the page's script can send; a new
 * form fails this test until it is added to it.
 *
 * It uses the production build in .next-e2e, built first when the sources are newer (scripts/test-all.sh
 * builds it before the unit tests). The forms by page are in ./native-forms/.
 */
import { afterAll, beforeAll } from "vitest";
import { startWorld, stopWorld } from "../../support/native-world";
import { seedParticipants } from "./actions";
import { seedLinkStudy } from "./sign-in";
import { seedGuest } from "./team";
import "./actions";
import "./team";
import "./gold";
import "./uploads";
import "./accounts";
import "./sign-in";
import "./sweep";

beforeAll(async () => {
  await startWorld((file, port) => {
    seedParticipants(file, port);
    seedGuest();
    seedLinkStudy(port);
  });
}, 900_000);

afterAll(async () => {
  await stopWorld();
});
