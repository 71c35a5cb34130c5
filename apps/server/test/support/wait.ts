/**
 * Until `check` holds (a condition the test waits for instead of a fixed sleep), looking again every
 * `everyMs`; fails naming `what` after `timeoutMs`. For a value to wait for, or a plain assertion,
 * vitest's `expect.poll` does the same; this is for conditions across the portal, its database and
 * the test's receivers (e-mails have smtp.waitFor, the outboxes portal.outboxSettled()).
 */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
