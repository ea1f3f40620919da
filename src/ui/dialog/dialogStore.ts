import { createStore, useStore } from '../store';

export const DIALOG_INTENTS = ['message', 'confirm'] as const;
export type DialogIntent = (typeof DIALOG_INTENTS)[number];
export const DIALOG_TYPES = ['success', 'danger', 'secondary'] as const;
export type DialogType = (typeof DIALOG_TYPES)[number];

/** The dialog of SPEC §3. Texts are already translated; missing labels get the defaults. */
export interface DialogRequest {
  id: string;
  intent: DialogIntent;
  type: DialogType;
  title: string;
  message: string;
  labels: { confirm?: string; cancel?: string };
  /** True when the confirm (or OK) button closed it; false for cancel, Escape or the backdrop. */
  callback?: (confirmed: boolean) => void;
}

export type DialogInput = Pick<DialogRequest, 'title' | 'message'> & Partial<Omit<DialogRequest, 'id' | 'title' | 'message'>>;

const store = createStore<readonly DialogRequest[]>([]);
let sequence = 0;

/** Queues a dialog; the host shows one at a time, oldest first. Returns its id. */
export function openDialog(input: DialogInput): string {
  sequence += 1;
  const request: DialogRequest = { id: `dialog-${sequence}`, intent: 'message', type: 'secondary', labels: {}, ...input };
  store.set((queue) => [...queue, request]);
  return request.id;
}

export function closeDialog(id: string, confirmed: boolean): void {
  const request = store.get().find((d) => d.id === id);
  if (!request) return;
  store.set((queue) => queue.filter((d) => d.id !== id));
  request.callback?.(confirmed);
}

/** Asks a question; resolves true when confirmed. */
export function confirm(input: Omit<DialogInput, 'intent' | 'callback'>): Promise<boolean> {
  return new Promise((resolve) => openDialog({ ...input, intent: 'confirm', callback: resolve }));
}

/** Tells something; resolves once the dialog is closed. */
export function showMessage(input: Omit<DialogInput, 'intent' | 'callback'>): Promise<void> {
  return new Promise((resolve) => openDialog({ ...input, intent: 'message', callback: () => resolve() }));
}

export const getDialogs = (): readonly DialogRequest[] => store.get();
export const useDialogs = (): readonly DialogRequest[] => useStore(store);
