/**
 * Options for the portal's query hooks: a screen asks once and shows the failure itself (as the
 * hand-written loads did), rather than TanStack's three silent retries and refetch on focus.
 * Polling screens keep `src/ui/usePolling` (hidden-tab skipping, no overlap).
 */
export const ONE_SHOT = { retry: false, refetchOnWindowFocus: false } as const;
