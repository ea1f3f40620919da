import * as OTPAuth from 'otpauth';

/** The code an authenticator app shows for `secret`, `offsetSteps` 30-second steps from now. */
export const totpNow = (secret: string, offsetSteps = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });
