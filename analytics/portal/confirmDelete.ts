import { confirm } from '../../src/ui/dialog/dialogStore';
import { showToast } from '../../src/ui/toast/toastStore';

interface Deletion {
  title: string;
  message: string;
  confirmLabel: string;
  /** The delete call; the list is read again after it. */
  remove: () => Promise<unknown>;
  refresh: () => Promise<unknown>;
  /** The toast once deleted, if the screen says so. */
  deleted?: string;
  /** The toast when it failed: the error in words. */
  failed: (error: unknown) => string;
}

/** Deleting a row of a dashboard list: asked first, then deleted and the list read again; a failure is a toast. */
export async function confirmDelete({ title, message, confirmLabel, remove, refresh, deleted, failed }: Deletion): Promise<void> {
  if (!(await confirm({ type: 'danger', title, message, labels: { confirm: confirmLabel } }))) return;
  try {
    await remove();
    if (deleted) showToast({ text: deleted, variant: 'successful' });
    await refresh();
  } catch (error) {
    showToast({ text: failed(error), variant: 'destructive' });
  }
}
