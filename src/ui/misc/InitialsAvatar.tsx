import Avatar from '@mui/material/Avatar';

/** SPEC §9: avatars without a picture show 2 initials. */
export const AVATAR_INITIALS_LENGTH = 2;

/** 'Ada Lovelace' → 'AL', 'Ada King Lovelace' → 'AL', 'ada' → 'AD', '' → ''. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  // Array.from splits by code point, so an emoji or accented letter is never cut in half.
  const chars =
    words.length >= 2 ? [Array.from(words[0] ?? '')[0], Array.from(words[words.length - 1] ?? '')[0]] : Array.from(words[0] ?? '').slice(0, AVATAR_INITIALS_LENGTH);
  return chars.join('').toLocaleUpperCase();
}

export interface InitialsAvatarProps {
  name: string;
  /** A picture wins over the initials when given. */
  src?: string | null;
  size?: number;
}

export function InitialsAvatar({ name, src, size = 40 }: InitialsAvatarProps) {
  return (
    <Avatar src={src ?? undefined} alt={name} role="img" aria-label={name} sx={{ width: size, height: size, fontSize: size * 0.4, bgcolor: 'primary.main', fontWeight: 600 }}>
      {initials(name)}
    </Avatar>
  );
}
