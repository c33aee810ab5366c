import { createTheme } from '@mantine/core';

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
  components: {
    Button: { defaultProps: { radius: 'md' } },
    TextInput: { defaultProps: { radius: 'md' } },
    PasswordInput: { defaultProps: { radius: 'md' } },
    Modal: {
      defaultProps: { radius: 'md', overlayProps: { backgroundOpacity: 0.45, blur: 2 } },
      styles: { title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } },
    },
  },
});
