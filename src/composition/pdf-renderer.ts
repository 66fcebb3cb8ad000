import { chromiumAvailable, chromiumPathOf } from '../infra/statement-pdf';

/**
 * What `npm start` says about statement PDFs: nothing when Chromium is there, else that PDFs need
 * it (the PDF routes answer 503 renderer_unavailable until it is installed).
 */
export function chromiumNotice(configuredPath: string | undefined): string | null {
  const path = chromiumPathOf(configuredPath);
  if (chromiumAvailable(path)) return null;
  return `SLA statement PDFs need Chromium, and there is none at ${path}: install it (apt-get install chromium) or set CHROMIUM_PATH. Until then statement.pdf answers 503 renderer_unavailable; HTML, JSON and the signature work.`;
}
