/**
 * Where the Google sign-in/sign-up button goes (SPEC §2). Social sign-in is not built yet, so the
 * slot renders nothing; pages keep it in place so the button lands without layout changes.
 */
export function SocialSignInSlot(_props: { mode: 'signIn' | 'signUp' }) {
  return null;
}
