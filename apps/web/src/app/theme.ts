import { type CSSVariablesResolver, createTheme, DEFAULT_THEME, darken, toRgba } from '@mantine/core';

const systemFonts =
  "Inter, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'Liberation Sans', system-ui, -apple-system, sans-serif";

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7 keeps white text on buttons above WCAG AA contrast.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily: systemFonts,
  headings: { fontFamily: systemFonts, fontWeight: '700' },
  defaultGradient: { from: 'indigo.7', to: 'teal.6', deg: 135 },
  cursorType: 'pointer',
  // Whoever asks the system for less motion gets dialogs, drawers and notices without their transitions.
  respectReducedMotion: true,
  components: {
    Button: { defaultProps: { radius: 'md' } },
    TextInput: { defaultProps: { radius: 'md' } },
    PasswordInput: { defaultProps: { radius: 'md' } },
    // Icon-only buttons inside inputs get a name (Mantine leaves them unnamed).
    ColorInput: {
      defaultProps: { eyeDropperButtonProps: { 'aria-label': 'Tomar un color de la pantalla' } },
    },
    DatePickerInput: { defaultProps: { clearButtonProps: { 'aria-label': 'Borrar la fecha' } } },
    Select: { defaultProps: { clearButtonProps: { 'aria-label': 'Borrar la selección' } } },
    // Every dropdown list (Select, the support search) is mounted only while open: Mantine keeps each one
    // mounted hidden, and positions it at the first render, forcing a style recalculation of the whole page
    // inside the first screen's task (docs/benchmarks.md, "Page budgets").
    Combobox: { defaultProps: { keepMounted: false } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Cerrar' } } },
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Cerrar notificación' } },
      // Under a title Mantine greys the text with gray.6 (3.3:1 on white): the readable 'dimmed' instead.
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    },
    Pagination: {
      defaultProps: {
        getItemProps: (page: number) => ({ 'aria-label': `Página ${page}` }),
        getControlProps: (control: 'first' | 'previous' | 'last' | 'next') => ({
          'aria-label': {
            first: 'Primera página',
            previous: 'Página anterior',
            next: 'Página siguiente',
            last: 'Última página',
          }[control],
        }),
      },
    },
    Modal: {
      defaultProps: {
        radius: 'md',
        overlayProps: { backgroundOpacity: 0.45, blur: 2 },
        closeButtonProps: { 'aria-label': 'Cerrar' },
      },
      styles: { title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } },
    },
  },
});

/** WCAG 2 contrast ratio of two opaque colours. */
function contrast(a: string, b: string): number {
  const lum = (color: string) => {
    const { r, g, b } = toRgba(color);
    const linear = (c: number) => {
      const v = c / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const [la, lb] = [lum(a), lum(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `color`, darkened just enough (if at all) for normal-size text against `background` (AA, 4.5:1). */
function readable(color: string, background: string): string {
  for (let amount = 0; amount < 1; amount += 0.05) {
    const candidate = amount === 0 ? color : darken(color, amount);
    if (contrast(candidate, background) >= 4.6) return candidate;
  }
  return '#000000';
}

/**
 * Light-scheme colour variables that keep text readable (WCAG AA): Mantine's 'dimmed' (gray.6, 3.3:1 on
 * white) becomes a grey of 5.5:1, placeholders and links get darker too; for the bright hues (teal, green, orange, red, blue...) the filled and
 * outline colours (white text on shade 7, coloured text on white) and the light variant's text (shade 9 on
 * shade 1, and on shade 2 while hovered) are darkened until they reach 4.5:1. Hues that already pass are unchanged.
 */
const PAGE_BACKGROUND = DEFAULT_THEME.colors.gray[0];

function readableColorVariables(): Record<string, string> {
  const variables: Record<string, string> = {
    '--mantine-color-dimmed': '#5f666d',
    // Mantine's placeholders (gray.5, 2.1:1) are real text in its pickers: 4.7:1 on white.
    '--mantine-color-placeholder': '#6e747b',
    // Links sit on tinted panels too (indigo.0): shade 8 keeps them above 5:1 there.
    '--mantine-color-anchor': DEFAULT_THEME.colors.indigo[8],
  };
  for (const [name, shades] of Object.entries(DEFAULT_THEME.colors)) {
    // Against gray.0, the page background, so coloured text passes there as well as on white.
    const filled = readable(shades[7], PAGE_BACKGROUND);
    if (filled !== shades[7]) {
      variables[`--mantine-color-${name}-filled`] = filled;
      variables[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.1);
      variables[`--mantine-color-${name}-outline`] = filled;
    }
    // Light and subtle buttons lie on shade 1, and on shade 2 under the pointer: the darker one decides.
    const lightText = readable(shades[9], shades[2]);
    if (lightText !== shades[9]) variables[`--mantine-color-${name}-light-color`] = lightText;
  }
  // Field errors (red.6 by default, 3.3:1).
  variables['--mantine-color-error'] = readable(DEFAULT_THEME.colors.red[7], PAGE_BACKGROUND);
  return variables;
}

const READABLE_LIGHT = readableColorVariables();

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: READABLE_LIGHT,
  dark: {},
});
