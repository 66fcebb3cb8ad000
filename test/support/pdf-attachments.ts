import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFStream,
  PDFString,
  decodePDFRawStream,
} from 'pdf-lib';

export interface PdfAttachment {
  name: string;
  mimeType: string | null;
  description: string | null;
  /** The embedded file's bytes, decoded (pdf-lib stores them Flate-compressed). */
  bytes: Uint8Array;
}

/**
 * The files attached to a PDF: pdf-lib can attach but not read back, so this walks the catalog's
 * `Names` → `EmbeddedFiles` → `Names` array of [name, file specification] pairs; each file
 * specification's `EF` → `F` is the embedded file stream.
 */
export function readPdfAttachments(pdf: PDFDocument): PdfAttachment[] {
  const list = pdf.catalog
    .lookupMaybe(PDFName.of('Names'), PDFDict)
    ?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict)
    ?.lookupMaybe(PDFName.of('Names'), PDFArray);
  if (!list) return [];
  const out: PdfAttachment[] = [];
  for (let i = 0; i + 1 < list.size(); i += 2) {
    const name = list.lookup(i, PDFString, PDFHexString).decodeText();
    const spec = list.lookup(i + 1, PDFDict);
    const stream = spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F'), PDFStream);
    if (!(stream instanceof PDFRawStream))
      throw new Error(`attachment ${name}: expected a raw stream, got ${stream.constructor.name}`);
    out.push({
      name,
      mimeType: stream.dict.lookupMaybe(PDFName.of('Subtype'), PDFName)?.decodeText() ?? null,
      description: spec.lookupMaybe(PDFName.of('Desc'), PDFString, PDFHexString)?.decodeText() ?? null,
      bytes: decodePDFRawStream(stream).decode(),
    });
  }
  return out;
}
