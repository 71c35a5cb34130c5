/**
 * The query of a page that reads one value of its address (a return URL, an error id): it runs
 * only when the address has it. `options` adds caching choices (staleTime, retry).
 */
export function optionalQuery<T, Name extends string>(
  name: readonly [string, Name],
  value: string | null,
  fetch: (value: string) => Promise<T>,
  options: { staleTime?: number; retry?: false } = {},
) {
  return { queryKey: [...name, value] as const, queryFn: () => fetch(value ?? ''), enabled: !!value, ...options };
}
