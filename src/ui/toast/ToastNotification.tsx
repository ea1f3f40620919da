import { useEffect } from 'react';
import { useNotificationContext, useTranslate, type NotificationType } from 'react-admin';
import { ToastHost } from './ToastHost';
import { showToast, type ToastVariant } from './toastStore';

const VARIANT: Record<NotificationType, ToastVariant> = { success: 'successful', info: 'informational', warning: 'warning', error: 'destructive' };

/**
 * react-admin's notification slot, bridged to the one app-wide toast queue: data provider errors
 * and react-admin's own messages show as the product's toasts.
 */
export function ToastNotification() {
  const { notifications, takeNotification } = useNotificationContext();
  const translate = useTranslate();
  useEffect(() => {
    if (!notifications.length) return;
    const next = takeNotification();
    if (!next) return;
    const text = typeof next.message === 'string' ? translate(next.message, { _: next.message, ...(next.notificationOptions?.messageArgs as Record<string, unknown> | undefined) }) : '';
    if (text) showToast({ text, variant: VARIANT[next.type] });
  }, [notifications, takeNotification, translate]);
  return <ToastHost />;
}
