import type { ComponentType } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '@/lib/query-client';

/**
 * A view inside the query client's provider. Every view but the login route's comes wrapped in it
 * (./router.tsx), so TanStack Query loads with them and not with the login page
 * (docs/decisions/022-login-and-manage-bundles.md); a view inside another (a page in its layout)
 * shares the one client.
 */
export function withQueries(View: ComponentType): ComponentType {
  function WithQueries() {
    return (
      <QueryClientProvider client={queryClient}>
        <View />
      </QueryClientProvider>
    );
  }
  WithQueries.displayName = `WithQueries(${View.displayName ?? View.name})`;
  return WithQueries;
}
