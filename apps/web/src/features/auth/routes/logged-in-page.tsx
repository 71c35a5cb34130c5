/** /loggedIn: an empty page shown while the browser goes on to the client application. */
export function LoggedInPage() {
  return <div aria-busy="true" />;
}
