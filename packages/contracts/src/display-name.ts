/** How a person is named to others (the user menu, e-mails, ID tokens, passkeys): first and last name, or the address when both are empty. */
export function displayName(firstName: string | null | undefined, lastName: string | null | undefined, email: string): string {
  return `${firstName ?? ''} ${lastName ?? ''}`.trim() || email;
}
