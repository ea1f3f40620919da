import { clientConfig } from '../../src/clientConfig';
import { downloadLink } from '../../src/ui/table/exportFile';

/** The product name as a file-name prefix: 'Beacon' → 'beacon', 'My Product' → 'my-product'. */
export function productSlug(productName: string = clientConfig.productName): string {
  return (
    productName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'export'
  );
}

/** Saves a Blob as a file through a temporary object URL. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  downloadLink(url, fileName);
  // Revoked later: the browser reads the Blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Writes text to the clipboard; false where the browser refuses (no permission, insecure page). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
