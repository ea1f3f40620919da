import { useDashboardMutation, type DashboardApi } from '../dataProvider/dashboard';
import { confirm } from '../../src/ui/dialog/dialogStore';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { showToast } from '../../src/ui/toast/toastStore';
import { useAnalytics } from './context';

interface Deletion {
  title: string;
  message: string;
  confirmLabel: string;
  /** The toast once deleted, if the screen says so. */
  deleted?: string;
}

/**
 * Deleting a row of a dashboard list: asked first, then `call` as a mutation (the lists read
 * again after it); a failure is a toast, worded by `failed` when the screen has its own words.
 */
export function useConfirmDelete<I>(call: (api: DashboardApi, input: I) => Promise<unknown>, failed?: (error: unknown, t: (key: string) => string) => string) {
  const { api } = useAnalytics();
  const mutation = useDashboardMutation(api, call);
  const { run } = useFormSubmit({ report: 'toast', ...(failed ? { message: failed } : {}) });
  return async (input: I, { title, message, confirmLabel, deleted }: Deletion): Promise<void> => {
    if (!(await confirm({ type: 'danger', title, message, labels: { confirm: confirmLabel } }))) return;
    if ((await run(() => mutation.mutateAsync(input))) && deleted) showToast({ text: deleted, variant: 'successful' });
  };
}
