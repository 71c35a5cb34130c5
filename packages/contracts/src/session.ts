/**
 * A cookie that script may read, set and removed together with the session cookie: it tells the
 * web app whether a session exists without asking the server. It carries no secret ('1').
 * (In a file of its own: pages that only need this name must not load the zod schemas.)
 */
export const SESSION_INDICATOR_COOKIE = 'pp_signed_in';
