import Link from '@mui/material/Link';

/** Where the product's legal documents open: the server sends the browser on to the configured pages. */
export const LEGAL_LINKS = { terms: '/legal/terms', privacy: '/legal/privacy' } as const;

/**
 * A checkbox label whose words `linkText` open `href` in a new tab ("I accept the [terms of
 * service]"); a click on the link opens the document and leaves the box as it is.
 */
export function LinkedLabel({ text, linkText, href }: { text: string; linkText: string; href: string }) {
  const at = linkText ? text.indexOf(linkText) : -1;
  const link = (
    <Link href={href} target="_blank" rel="noopener noreferrer">
      {at < 0 ? linkText : text.slice(at, at + linkText.length)}
    </Link>
  );
  if (at < 0) return <span>{text} ({link})</span>;
  return (
    <span>
      {text.slice(0, at)}
      {link}
      {text.slice(at + linkText.length)}
    </span>
  );
}
