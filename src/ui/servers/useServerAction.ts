import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeploymentActionAnswer } from '../../domain/deployments/schemas';
import { confirm } from '../dialog/dialogStore';
import { useFormSubmit } from '../form/useFormSubmit';
import { showToast } from '../toast/toastStore';

/** What an action answers: at least the task it queued (the customer's answer, or the admin's server page made into one). */
export type ActionAnswer = Pick<DeploymentActionAnswer, 'task'>;

export interface ActionRequest<A extends ActionAnswer = DeploymentActionAnswer> {
  title: string;
  message: string;
  confirmLabel: string;
  danger?: boolean;
  call: () => Promise<A>;
  /** Toast after the call; the task's name is said when none is given. */
  done?: (answer: A) => string;
}

/**
 * Runs a server action the way every action runs: a confirmation dialog, the call, the answer's
 * server put on the page at once, and the server's own message when it refuses (409 and others).
 * `start` is the same without the dialog, for an action that loses nothing (Back up now).
 */
export function useServerAction<A extends ActionAnswer = DeploymentActionAnswer>(onAnswer: (answer: A) => void) {
  const { t } = useTranslation();
  const { run: submit, submitting: pending } = useFormSubmit({ report: 'toast' });
  const start = useCallback(
    (request: Pick<ActionRequest<A>, 'call' | 'done'>): Promise<boolean> =>
      submit(async () => {
        const answer = await request.call();
        onAnswer(answer);
        const text = request.done?.(answer) ?? (answer.task ? t('deployment.queued', { task: t(`servers.task.${answer.task.type}`) }) : null);
        if (text) showToast({ text, variant: 'successful' });
      }),
    [onAnswer, t, submit],
  );
  const run = useCallback(
    async (request: ActionRequest<A>): Promise<boolean> => {
      const ok = await confirm({
        type: request.danger ? 'danger' : 'secondary',
        title: request.title,
        message: request.message,
        labels: { confirm: request.confirmLabel, cancel: t('deployment.keep') },
      });
      return ok ? start(request) : false;
    },
    [start, t],
  );
  return { run, start, pending };
}
