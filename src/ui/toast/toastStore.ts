import { TIMINGS } from '../../domain/constants';
import { createStore, useStore } from '../store';

export const TOAST_COLORS = ['light', 'dark'] as const;
export type ToastColor = (typeof TOAST_COLORS)[number];
export const TOAST_VARIANTS = ['informational', 'successful', 'warning', 'destructive'] as const;
export type ToastVariant = (typeof TOAST_VARIANTS)[number];

/** The toast of SPEC §3. */
export interface Toast {
  id: string;
  /** Already translated text. */
  text: string;
  color: ToastColor;
  variant: ToastVariant;
  autoHide: boolean;
}

export type ToastInput = Pick<Toast, 'text'> & Partial<Omit<Toast, 'text'>>;

/** More than this at once is noise (an error storm): the oldest give way. */
export const MAX_TOASTS = 5;

const store = createStore<readonly Toast[]>([]);
const timers = new Map<string, ReturnType<typeof setTimeout>>();
let sequence = 0;

function stopTimer(id: string) {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}

export function dismissToast(id: string): void {
  stopTimer(id);
  store.set((toasts) => toasts.filter((t) => t.id !== id));
}

/**
 * Queues a toast for the app-wide host; callable from anywhere, React or not (the data
 * provider's error path uses it). A toast with the id of a shown one replaces it. Returns the id.
 */
export function showToast(input: ToastInput | string): string {
  const fields = typeof input === 'string' ? { text: input } : input;
  sequence += 1;
  const toast: Toast = { id: `toast-${sequence}`, color: 'light', variant: 'informational', autoHide: true, ...fields };
  stopTimer(toast.id);
  store.set((toasts) => {
    const next = [...toasts.filter((t) => t.id !== toast.id), toast];
    for (const dropped of next.slice(0, Math.max(0, next.length - MAX_TOASTS))) stopTimer(dropped.id);
    return next.slice(-MAX_TOASTS);
  });
  // SPEC §4: auto-hide closes the toast after 7000 ms.
  if (toast.autoHide) timers.set(toast.id, setTimeout(() => dismissToast(toast.id), TIMINGS.toastAutoHideMs));
  return toast.id;
}

export function clearToasts(): void {
  for (const id of [...timers.keys()]) stopTimer(id);
  store.set([]);
}

export const getToasts = (): readonly Toast[] => store.get();
export const subscribeToasts = (listener: () => void) => store.subscribe(listener);
export const useToasts = (): readonly Toast[] => useStore(store);
