/**
 * A URL cut into the parts a line may break between: each part ends with its separators ("https://",
 * "example.", "connect/", "?", "&", "=", "#", ":"), so a long address shown on a narrow screen wraps
 * after a separator, never inside a word. Joined, the parts are the URL again.
 */
export function urlParts(url: string): string[] {
  return url.match(/[^/.?&=#:]*(?:[/.?&=#:]+|$)/g)?.filter((part) => part !== '') ?? [];
}

/** Whether a value shown is a web address (http or https), to be shown in its parts. */
export function isWebAddress(value: string): boolean {
  return /^https?:\/\/\S+$/i.test(value);
}
