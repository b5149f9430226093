/** The colours screens are drawn with: Material's light theme, and its dark theme for `color_scheme: 'dark'`. */
export interface Palette {
  ink: string;
  muted: string;
  /** Deliberately low-contrast text (the Shop product's rating: a documented accessibility finding). */
  faint: string;
  primary: string;
  danger: string;
  bar: string;
  toolbar: string;
  surface: string;
  line: string;
  soft: string;
  badge: string;
  canvas: string;
  keyboard: string;
  /** Text and icons on dark fills: toolbars, badges, bars, canvases. */
  onDark: string;
  /** Text on a primary button. */
  onPrimary: string;
  statusBar: string;
}

export const LIGHT: Palette = {
  ink: '#202124',
  muted: '#5f6368',
  faint: '#c4c7c5',
  primary: '#1a73e8',
  danger: '#d93025',
  bar: '#3c4043',
  toolbar: '#3f51b5',
  surface: '#ffffff',
  line: '#dadce0',
  soft: '#e8eaed',
  badge: '#323232',
  canvas: '#102030',
  keyboard: '#eceff1',
  onDark: '#ffffff',
  onPrimary: '#ffffff',
  statusBar: '#202124',
};

/** Light text on a dark surface (Material's #121212), lighter accents so they keep their contrast. */
export const DARK: Palette = {
  ink: '#e8eaed',
  muted: '#9aa0a6',
  faint: '#3c4043',
  primary: '#8ab4f8',
  danger: '#f28b82',
  bar: '#5f6368',
  toolbar: '#1f1f1f',
  surface: '#121212',
  line: '#3c4043',
  soft: '#2d2e30',
  badge: '#3c4043',
  canvas: '#0b1620',
  keyboard: '#202124',
  onDark: '#e8eaed',
  onPrimary: '#202124',
  statusBar: '#000000',
};

export function paletteOf(scheme: 'light' | 'dark' | undefined): Palette {
  return scheme === 'dark' ? DARK : LIGHT;
}
