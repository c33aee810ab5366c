/**
 * What the file fields (image-field.tsx, pdf-field.tsx) share: one value model (the stored file's URL, a
 * newly chosen file, or the stored file marked for removal; a form sends `file` when there is one, else
 * "remove" when asked), the choice of a file with its refusal, and the labelled frame with its message.
 */
import { Input } from '@mantine/core';
import { type ReactNode, useEffect, useId, useState } from 'react';

export interface FileValue {
  /** A newly chosen file (sent with the form). */
  file: File | null;
  /** The stored file is to be removed on save. */
  remove: boolean;
  /** The stored file's URL, or null. */
  currentUrl: string | null;
}

/** The value of a field showing the stored file (or none): nothing chosen, nothing removed. */
export function storedFile(currentUrl: string | null = null): FileValue {
  return { file: null, remove: false, currentUrl };
}

/**
 * An object URL for a chosen file, released when it changes. The URL is answered only for the file it was made
 * for: in the render where the file changes (or is cleared, e.g. when a saved form resets), the old URL — about
 * to be revoked by the effect's cleanup — is never handed to an image that could still start loading it (a load
 * of a revoked URL fails with a console error); the new file's URL follows in the next render.
 */
export function useObjectUrl(file: File | null): string | null {
  const [made, setMade] = useState<{ file: File; url: string } | null>(null);
  useEffect(() => {
    if (!file) {
      setMade(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setMade({ file, url });
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return made && made.file === file ? made.url : null;
}

/**
 * Choosing and clearing a file field's value. `refusal` says why a file cannot be taken (its type, its size),
 * or null; a refused file never replaces the current choice, and its reason is the field's message until the
 * next pick (else the form's `error`, e.g. the server's). `errorId` names that message for the file input.
 */
export function useFileChoice(
  value: FileValue,
  onChange: (value: FileValue) => void,
  refusal: (file: File) => string | null,
  error: ReactNode,
) {
  const [refused, setRefused] = useState<string | null>(null);
  const id = useId();
  const message = refused ?? error;
  return {
    id,
    message,
    errorId: message ? `${id}-error` : undefined,
    choose(file: File | null) {
      if (!file) return;
      const reason = refusal(file);
      setRefused(reason);
      if (!reason) onChange({ ...value, file, remove: false });
    },
    clear() {
      setRefused(null);
      onChange({ ...value, file: null, remove: Boolean(value.currentUrl) });
    },
  };
}

/** The props every file field takes. */
export interface FileFieldProps {
  label: string;
  value: FileValue;
  onChange: (value: FileValue) => void;
  disabled?: boolean;
  /** A message from the form (the server's, about this file). */
  error?: ReactNode;
  description?: string;
}

/** The field's label, description and message around its widget (`id` from useFileChoice). */
export function FileFieldFrame({
  id,
  label,
  description,
  message,
  children,
}: {
  id: string;
  label: string;
  description: string;
  message: ReactNode;
  children: ReactNode;
}) {
  return (
    <Input.Wrapper
      label={label}
      description={description}
      error={message}
      id={id}
      labelElement="div"
      inputWrapperOrder={['label', 'description', 'input', 'error']}
    >
      {children}
    </Input.Wrapper>
  );
}
