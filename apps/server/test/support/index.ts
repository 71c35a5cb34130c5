/**
 * The server's test kit, for the end-to-end tests (e2e/), which import it as
 * '@partner-portal/server/test-kit' (apps/server/package.json, "exports"; vitest.config.ts maps the
 * name for the test runner). The integration tests beside it import its modules directly.
 */
export { ADMIN_EMAIL, ADMIN_PASSWORD, freePort, startPortal, type TestPortal } from './portal.js';
export { HttpClient, type HttpResponse } from './http.js';
export { type CaughtMail } from './smtp.js';
export { DnsServer, startDnsServer } from './dns-server.js';
export { lastSignInOf, moveLastSignInBack } from './clock.js';
export { login, setPassword, signIn, type Credentials, type LoginOptions } from './sign-in.js';
export { createUser, type TestUser } from '../identity/support.js';
export { createMember, createOrg, rights, type ActorRef, type Org } from '../organizations/fixtures.js';
export { DCR_TOKEN, discover, registerClient, startAuthorization } from '../oidc/support.js';
export { startDealerIdp, type DealerAccount, type DealerClient, type DealerIdp } from './dealer-idp.js';
export { buildWorld, USER_PASSWORD, type World } from '../security/support/world.js';
export { startReceiver, startWorker, type Receiver } from '../webhooks/support.js';
export { startStreamWorker } from '../audit-streams/support.js';

// what the end-to-end tests take from the server itself: the web app's build, secrets kept only as
// hashes (an invitation made in SQL), and the provider's storage (an error it recorded)
export { DEFAULT_WEB_DIST } from '../../src/app.js';
export { hashSecret } from '../../src/http/session.js';
export { postgresAdapter } from '../../src/oidc/adapter.js';
