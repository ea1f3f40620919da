import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import type { BeaconDataProvider } from '../dataProvider/dataProvider';

/**
 * An action beyond CRUD on one record (lock a user, view as a company's admin...): a data-provider
 * method run as a mutation; failures show the API's message, success calls `onDone`.
 */
export function useRecordAction<T>(resource: string, onDone: (data: T, action: string) => void) {
  const dataProvider = useDataProvider<BeaconDataProvider>();
  const notify = useNotify();
  return useMutation({
    mutationFn: (params: { id: string; action: string; data?: Record<string, unknown> }) => dataProvider.recordAction<T>(`admin/${resource}`, params),
    onSuccess: ({ data }, { action }) => onDone(data, action),
    onError: (error: Error) => notify(error.message, { type: 'error' }),
  });
}
