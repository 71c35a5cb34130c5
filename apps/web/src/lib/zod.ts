/**
 * `zod` in the web build (an alias in vite.config.ts): zod itself, set up before its first use.
 * The Content-Security-Policy allows no eval, so zod must not probe for it (the probe is a CSP
 * violation in the console). It is set here rather than in the entry so that pages which use no
 * schema (the login page) do not load zod at all.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });

export * from 'zod/v4';
