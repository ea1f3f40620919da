import Alert, { type AlertColor } from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { dismissToast, useToasts, type ToastVariant } from './toastStore';

const SEVERITY: Record<ToastVariant, AlertColor> = {
  informational: 'info',
  successful: 'success',
  warning: 'warning',
  destructive: 'error',
};

/** Renders the app-wide toast queue; mount once near the root. */
export function ToastHost() {
  const { t } = useTranslation();
  const toasts = useToasts();
  return (
    <Box
      aria-label={t('widgets.toast.region')}
      role="region"
      sx={{
        position: 'fixed',
        zIndex: (theme) => theme.zIndex.snackbar,
        bottom: 16,
        left: 16,
        right: { xs: 16, sm: 'auto' },
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
        width: { sm: 400 },
        pointerEvents: toasts.length ? 'auto' : 'none',
      }}
    >
      {toasts.map((toast) => {
        const urgent = toast.variant === 'destructive' || toast.variant === 'warning';
        const dark = toast.color === 'dark';
        return (
          <Alert
            key={toast.id}
            role={urgent ? 'alert' : 'status'}
            severity={SEVERITY[toast.variant]}
            variant="outlined"
            onClose={() => dismissToast(toast.id)}
            slotProps={{ closeButton: { 'aria-label': t('widgets.toast.close'), title: t('widgets.toast.close') } }}
            sx={{
              boxShadow: 3,
              bgcolor: dark ? 'grey.900' : 'background.paper',
              color: dark ? 'common.white' : 'text.primary',
              borderLeftWidth: 4,
              '& .MuiAlert-action': { color: dark ? 'grey.300' : 'text.secondary' },
            }}
          >
            {toast.text}
          </Alert>
        );
      })}
    </Box>
  );
}
