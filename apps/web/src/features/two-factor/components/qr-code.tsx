import { Center, Skeleton, Text } from '@mantine/core';
import { useEffect, useState } from 'react';

interface QrCodeProps {
  /** The otpauth:// URL the authenticator app reads. */
  value: string;
  /** Side in CSS pixels. */
  size?: number;
}

type Drawing = { value: string; src: string } | { value: string; failed: true };

/**
 * The QR code of an enrolment, drawn here in the browser (the secret never leaves the page). The drawing
 * code is loaded only when a QR is shown.
 */
export function QrCode({ value, size = 184 }: QrCodeProps) {
  const [drawing, setDrawing] = useState<Drawing | null>(null);

  useEffect(() => {
    let current = true;
    import('qrcode')
      .then((qr) => qr.toString(value, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }))
      .then((svg) => {
        if (current)
          setDrawing({ value, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
      })
      .catch(() => {
        if (current) setDrawing({ value, failed: true });
      });
    return () => {
      current = false;
    };
  }, [value]);

  if (!drawing || drawing.value !== value) return <Skeleton w={size} h={size} radius="md" />;
  if ('failed' in drawing) {
    return (
      <Center w={size} h={size} bg="var(--mantine-color-gray-1)" style={{ borderRadius: 8 }}>
        <Text size="sm" c="dimmed" ta="center" px="sm">
          No se pudo dibujar el código QR; usa la clave de abajo.
        </Text>
      </Center>
    );
  }
  return (
    <img
      src={drawing.src}
      width={size}
      height={size}
      alt="Código QR para tu aplicación de autenticación"
      data-testid="codigo-qr"
      style={{ display: 'block', borderRadius: 8, border: '1px solid var(--mantine-color-gray-3)' }}
    />
  );
}
