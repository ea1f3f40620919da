import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../src/ui/dialog/FormDialog';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { showToast } from '../../src/ui/toast/toastStore';

interface Props {
  title: string;
  /** Closes the dialog; `saved`: something changed, so the screen reads its list again. */
  onClose: (saved: boolean) => void;
  /** Checks the fields before anything is sent; false: the fields say why, nothing is sent. */
  ready?: () => boolean;
  /** The call that saves. */
  save: () => Promise<unknown>;
  /** The toast once saved. */
  savedText: string;
  children: ReactNode;
}

/** The dashboard's dialogs that save one thing: Save and Cancel, the failure above the fields, a toast and close once saved. */
export function SaveDialog({ title, onClose, ready = () => true, save, savedText, children }: Props) {
  const { t } = useTranslation();
  const { run, failure, submitting } = useFormSubmit();
  const submit = async () => {
    if (!ready()) return;
    await run(async () => {
      await save();
      showToast({ text: savedText, variant: 'successful' });
      onClose(true);
    });
  };
  return (
    <FormDialog title={title} onCancel={() => onClose(false)} onSubmit={() => void submit()} submitLabel={t('analytics.save')} cancelLabel={t('analytics.cancel')} submitting={submitting} failure={failure}>
      {children}
    </FormDialog>
  );
}
