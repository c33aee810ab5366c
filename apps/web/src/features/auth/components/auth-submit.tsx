import { Button, type ButtonProps, Loader } from '@mantine/core';

interface AuthSubmitProps extends Omit<ButtonProps, 'children'> {
  /** The request is under way: 'Espere un momento' with a spinner, and no second submit. */
  pending: boolean;
  label: string;
}

/** The full-width submit button of the sign-in screens. */
export function AuthSubmit({ pending, label, ...props }: AuthSubmitProps) {
  return (
    <Button
      type="submit"
      size="md"
      fullWidth
      disabled={pending}
      leftSection={pending ? <Loader size={16} color="currentColor" aria-hidden /> : null}
      {...props}
    >
      {pending ? 'Espere un momento' : label}
    </Button>
  );
}
