import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A write of an area: the call, then the area's reads it changes (`invalidates`, keys from the
 * area's `queries.ts`) are read again before `mutateAsync` resolves. A screen runs it through
 * `useFormSubmit`'s `run` (or `FormDialog`), the one path by which a failure reaches the user.
 */
export function useAreaMutation<I, T>(mutationFn: (input: I) => Promise<T>, invalidates: (input: I) => readonly QueryKey[] = () => []) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: (_answer, input) => Promise.all(invalidates(input).map((queryKey) => client.invalidateQueries({ queryKey }))) });
}
