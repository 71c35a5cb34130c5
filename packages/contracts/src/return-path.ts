/**
 * The one rule for return paths (docs/security.md, "Return paths"), used by the server's login and
 * by the web app: a return path is followed only when it resolves to a path of this site. It must
 * start with one "/", hold no backslash or control character, and resolve (dot segments and
 * percent-encoding normalised) to a same-origin path that does not itself start with "//", so that
 * no client following it can be sent to another host. Answers the normalised path, or null.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || value.length > 2000 || !value.startsWith('/') || value.startsWith('//')) return null;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return null;
  const origin = 'https://return-path.invalid';
  let resolved: URL;
  try {
    resolved = new URL(value, origin);
  } catch {
    return null;
  }
  if (resolved.origin !== origin || resolved.pathname.startsWith('//') || resolved.pathname.includes('\\')) return null;
  // a path that decodes to "//" or "\" would become protocol-relative for a client that decodes it
  let decoded: string;
  try {
    decoded = decodeURIComponent(resolved.pathname);
  } catch {
    return null;
  }
  if (decoded.startsWith('//') || decoded.startsWith('/\\')) return null;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
