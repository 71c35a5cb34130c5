/**
 * Whether passkeys can work on this page at all: WebAuthn needs a secure context whose host is a
 * domain name (it refuses an IP address as relying party: docs/second-factors.md, "Passkeys") and a
 * browser with PublicKeyCredential. Kept apart from lib/factors.ts, which loads only when needed,
 * so the login page can ask before loading it.
 */
export function passkeysPossible(): boolean {
  const { hostname } = window.location;
  // IPv4 (digits and dots) or IPv6 (in brackets)
  const ipAddress = /^[\d.]+$/.test(hostname) || hostname.startsWith('[');
  return window.isSecureContext && !ipAddress && typeof window.PublicKeyCredential === 'function';
}
