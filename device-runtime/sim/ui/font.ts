/**
 * A 5×7 bitmap font for printable ASCII (0x20–0x7E), drawn for nestwright's screenshots: each
 * glyph is 7 rows, each row one base-32 digit whose 5 bits are the pixels, leftmost in bit 4.
 * Anything else (•, emoji, accents) is drawn as {@link FALLBACK}.
 */
const TABLE =
  '0000000 4444404 aa00000 avaaava 4fke5u4 pq248bj cik8lid 4400000 2488842 8422248 04lel40 044v440 ' +
  '0000c48 000v000 00000cc 122488g ehjlphe 4c4444e eh168gv u11e11u 26aiv22 vgu11he 68guhhe v124888 ' +
  'ehhehhe ehhf12c 0cc0cc0 0cc0c48 248g842 00v0v00 8421248 eh12404 ehnlnge ehhvhhh uhhuhhu ehggghe ' +
  'sihhhis vgguggv vgguggg ehgnhhf hhhvhhh e44444e 72222ic hikokih ggggggv hrllhhh hpljhhh ehhhhhe ' +
  'uhhuggg ehhhlid uhhukih fgge11u v444444 hhhhhhe hhhhha4 hhhllla hha4ahh hha4444 v1248gv e88888e ' +
  'g884221 e22222e 4ah0000 000000v 8400000 00e1fhf ggmphhu 00egghe 11djhhf 00ehvge 698s888 0fhhf1e ' +
  'ggmphhh 40c444e 20622ic ggikoki c44444e 00qllhh 00mphhh 00ehhhe 00uhugg 00djf11 00mpggg 00ege1u ' +
  '88s8896 00hhhjd 00hhha4 00hhlla 00ha4ah 00hhf1e 00v248v 2448442 4444444 8442448 008l200' +
  '';

export const GLYPH_WIDTH = 5;
export const GLYPH_HEIGHT = 7;

/** A filled middle dot: password bullets and unknown characters. */
const FALLBACK = [0, 0, 14, 14, 14, 0, 0];
const GLYPHS: number[][] = TABLE.split(' ').map((g) => [...g].map((c) => parseInt(c, 32)));

/** The 7 row bitmasks of a character. */
export function glyph(ch: string): readonly number[] {
  const code = ch.charCodeAt(0);
  return code >= 0x20 && code <= 0x7e ? GLYPHS[code - 0x20]! : FALLBACK;
}
