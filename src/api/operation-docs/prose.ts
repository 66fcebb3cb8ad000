/** One description from its pieces, kept short so the prose reads in an editor; the pieces join as written. */
export const prose = (...pieces: string[]): string => pieces.join('');
