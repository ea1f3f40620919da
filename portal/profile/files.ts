import { clientConfig } from '../../src/clientConfig';
import { productSlug } from '../../src/domain/fileNames';
import { downloadLink } from '../../src/ui/table/exportFile';

/** This product's file-name prefix ('beacon'). */
export const productPrefix = (): string => productSlug(clientConfig.productName);

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
