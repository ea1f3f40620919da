/**
 * Options for the portal's query hooks: a screen asks once and shows the failure itself (as the
 * hand-written loads did), rather than TanStack's three silent retries and refetch on focus.
 * A live screen adds `refetchInterval`, which skips a hidden tab and never overlaps a load in flight.
 */
export const ONE_SHOT = { retry: false, refetchOnWindowFocus: false } as const;
