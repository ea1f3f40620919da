import { AppError } from '../../errors';
import type { RateCounters } from '../rateCounters';
import type { AttemptSource } from '../signinGuard';
import type { TwoFactorService } from '../twoFactor';
import type { Actor, AuthKit } from './shared';

export interface TwoFactorSettingsDeps {
  twoFactor: TwoFactorService;
  counters: RateCounters;
  kit: AuthKit;
}

/**
 * Turning the signed-in account's two-factor sign-in on and off (SPEC §4). The secret and codes
 * are kept by `twoFactor.ts`; the step at sign-in is the kit's `checkSecondFactor`.
 */
export function createTwoFactorSettingsService({ twoFactor, counters, kit }: TwoFactorSettingsDeps) {
  const { codeLimit, checkCode, requireFreshProof } = kit;
  return {
    /** Starting (or restarting) set-up replaces the second factor: it needs a fresh proof. */
    async initiate(actor: Actor) {
      requireFreshProof(actor);
      return twoFactor.initiate(actor.user);
    },

    async enable(actor: Actor, { code }: { code: string }) {
      requireFreshProof(actor);
      // Its own budget: setting up checks a code of the new secret, not the sign-in one.
      await counters.hit(`2fa-setup:${actor.user.id}`, codeLimit);
      return twoFactor.enable(actor.user, code);
    },

    /** A current code (or recovery code) is itself the proof; it is checked under the same limits as at sign-in. */
    async disable(actor: Actor, { code, from }: { code: string; from: AttemptSource }): Promise<void> {
      if (!actor.user.mfaEnabled || !(await checkCode(actor.user, code, from))) throw new AppError('TWO_FACTOR_CODE_WRONG', { fieldErrors: { code: ['errors.TWO_FACTOR_CODE_WRONG'] } });
      await twoFactor.turnOff(actor.user);
    },
  };
}

export type TwoFactorSettingsService = ReturnType<typeof createTwoFactorSettingsService>;
