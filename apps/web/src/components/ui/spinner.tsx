import { Loader, type LoaderProps } from '@mantine/core';

/**
 * A spinner that says what is being waited for: a status with its name, as assistive technology reads it
 * (a bare element may not carry a name). Its own module: the sign-in screen's first load carries it.
 */
export function Spinner({ label, ...props }: Omit<LoaderProps, 'aria-label' | 'role'> & { label: string }) {
  return <Loader role="status" aria-label={label} {...props} />;
}
