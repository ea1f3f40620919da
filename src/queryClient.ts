import { QueryClient } from '@tanstack/react-query';

/**
 * The app's one query cache, handed to react-admin's `<Admin>` (which would otherwise make its
 * own): admin resources and the portal's `dataProvider/<area>.ts` hooks share it. Kept out of the
 * front door's shell, whose pages load nothing through it.
 */
export const queryClient = new QueryClient();
