/**
 * Refusal of the most common passwords, beyond SPEC §5's rules. People meet "upper, lower, number,
 * special" by decorating a common word ("Password1!", "Welcome123!"), so a password is refused when,
 * without its digits and special characters, it is one of these words. The list ships with the product.
 */
const COMMON_WORDS = new Set(
  `password passw0rd passwort motdepasse contraseña welcome qwerty qwertz azerty asdf asdfgh zxcvbn
  letmein admin administrator root login iloveyou monkey dragon football baseball soccer hockey
  sunshine princess master shadow superman batman trustno michael jordan jennifer hunter ranger
  buster tigger charlie summer winter spring autumn secret freedom whatever starwars pokemon
  changeme default guest user test tester hello abc abcd abcdef abcdefg qwertyuiop
  computer internet samsung google apple microsoft facebook linkedin beacon analytics
  company business january february march april may june july august september october november december
  monday friday sunday love lovely baby angel flower cookie chocolate cheese banana orange
  purple yellow silver golden diamond killer pepper ginger maggie lucky thunder matrix`
    .split(/\s+/)
    .filter(Boolean),
);

const LEET: Record<string, string> = { '@': 'a', '4': 'a', '0': 'o', '1': 'i', '!': 'i', '3': 'e', '$': 's', '5': 's', '7': 't' };

/** True when the password is a common word decorated with digits and special characters. */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const core = lower.replace(/[^\p{L}]/gu, '');
  if (core.length === 0 || /^(.)\1+$/u.test(core)) return true;
  // "P@ssw0rd": undo the usual substitutions inside the word, after dropping the trailing decoration.
  const unleet = [...lower.replace(/[^\p{L}]+$/u, '')].map((c) => LEET[c] ?? c).join('').replace(/[^\p{L}]/gu, '');
  return COMMON_WORDS.has(core) || COMMON_WORDS.has(unleet);
}
