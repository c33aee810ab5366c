/**
 * An order's thread "Comentarios" (decision 0047): the comments of the buyer and the approvers, oldest
 * first, as plain text (React escapes it; line breaks kept), and a form to add one. The order brings its
 * latest 50; "Ver comentarios anteriores" loads older ones a page at a time. Every order screen uses it;
 * each passes its own calls.
 */
import '@mantine/core/styles/Avatar.css';
import { Avatar, Badge, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { ROLES } from '@portal/shared/domain/roles';
import { COMENTARIO_MAX } from '@portal/shared/limits';
import { MSG } from '@portal/shared/messages';
import type { OlderCommentsResponse, OrderCommentDto } from '@portal/shared/schemas/comments';
import { IconMessageCircle, IconSend } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { errorMessage, isApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/format';

const ROLE_LABEL: Record<number, string> = {
  [ROLES.usuario]: 'Comprador',
  [ROLES.autorizador]: 'Autorizador',
  [ROLES.superAutorizador]: 'Super Autorizador',
};

function initials(nombre: string): string {
  const parts = nombre.trim().split(/\s+/).filter(Boolean);
  return (parts[0]?.[0] ?? '?').toUpperCase() + (parts[1]?.[0] ?? '').toUpperCase();
}

/** The text's problem before sending it, or null. */
export function commentProblem(texto: string): string | null {
  const t = texto.trim();
  if (!t) return MSG.comentarioVacio;
  if (t.length > COMENTARIO_MAX) return MSG.comentarioLargo;
  return null;
}

interface OrderCommentsProps {
  /** The order's latest comments, oldest first (the server sends at most 50). */
  comentarios: OrderCommentDto[] | undefined;
  /** How many the order has in all (older ones are loaded on demand). */
  total?: number;
  /** Loads the page of comments older than one; without it no older ones are offered. */
  loadOlder?: (antes: number) => Promise<OlderCommentsResponse>;
  /**
   * Sends a comment; resolves when saved (the caller updates the order), rejects with the server's error.
   * Without it the comments are read-only (no form).
   */
  onSend?: (texto: string) => Promise<unknown>;
  /** Whose screen this is: their own comments are told apart. */
  viewerRol: number;
}

/** One empty list for every render without comments (a new one each render would re-run the merge). */
const NO_COMMENTS: OrderCommentDto[] = [];

export function OrderComments({
  comentarios: latest = NO_COMMENTS,
  total,
  loadOlder,
  onSend,
  viewerRol,
}: OrderCommentsProps) {
  // Every comment seen: the latest ones as they come (one that a new comment pushes out of the latest 50
  // stays) and the older pages loaded, by id.
  const [seen, setSeen] = useState<Map<number, OrderCommentDto>>(() => new Map());
  useEffect(() => {
    setSeen((prev) => {
      if (latest.every((c) => prev.get(c.id) === c)) return prev;
      const next = new Map(prev);
      for (const c of latest) next.set(c.id, c);
      return next;
    });
  }, [latest]);
  const comentarios = useMemo(
    () =>
      [...new Map([...seen, ...latest.map((c) => [c.id, c] as const)]).values()].sort((a, b) => a.id - b.id),
    [seen, latest],
  );
  const count = Math.max(total ?? 0, comentarios.length);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  const showOlder = async () => {
    const first = comentarios[0];
    if (!loadOlder || !first) return;
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const page = await loadOlder(first.id);
      setSeen((prev) => {
        const next = new Map(prev);
        for (const c of page.comentarios) next.set(c.id, c);
        return next;
      });
    } catch (e) {
      setOlderError(errorMessage(e));
    } finally {
      setLoadingOlder(false);
    }
  };
  const [texto, setTexto] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const mineIsBuyer = viewerRol === ROLES.usuario;

  const submit = async () => {
    const problem = commentProblem(texto);
    if (problem) {
      setError(problem);
      return;
    }
    if (!onSend) return;
    setSending(true);
    try {
      await onSend(texto.trim());
      setTexto('');
      setError(null);
    } catch (e) {
      setError(isApiError(e) ? (e.errors?.texto ?? e.msg ?? MSG.ocurrioUnError) : MSG.ocurrioUnError);
    } finally {
      setSending(false);
    }
  };

  return (
    <Paper withBorder radius="lg" p="md" shadow="xs" component="section" aria-labelledby="comentarios-titulo">
      <Group justify="space-between" mb="md" gap="xs">
        <Title order={2} fz="lg" id="comentarios-titulo">
          Comentarios
        </Title>
        <Badge variant="light" color="indigo" radius="sm" data-testid="comentarios-total">
          {count}
        </Badge>
      </Group>
      {loadOlder && comentarios.length < count ? (
        <Group justify="center" mb="sm" gap="xs">
          <Button variant="subtle" size="compact-sm" loading={loadingOlder} onClick={() => void showOlder()}>
            Ver comentarios anteriores ({count - comentarios.length})
          </Button>
          {olderError ? (
            <Text size="sm" c="red" role="alert">
              {olderError}
            </Text>
          ) : null}
        </Group>
      ) : null}
      {comentarios.length === 0 ? (
        <Text size="sm" c="dimmed" mb="md">
          {!onSend
            ? 'Sin comentarios.'
            : mineIsBuyer
              ? 'Aún no hay comentarios. Escribe si necesitas aclarar algo con quien revisa tu pedido.'
              : 'Aún no hay comentarios. Escribe si necesitas aclarar algo con el comprador.'}
        </Text>
      ) : (
        <Stack
          gap="sm"
          component="ol"
          m={0}
          p={0}
          mb="md"
          style={{ listStyle: 'none' }}
          aria-label="Comentarios"
        >
          {comentarios.map((c) => {
            const fromBuyer = c.autor.rol === ROLES.usuario;
            return (
              <Group
                key={c.id}
                component="li"
                gap="sm"
                align="flex-start"
                wrap="nowrap"
                data-testid="comentario"
              >
                <Avatar radius="xl" size={32} color={fromBuyer ? 'indigo' : 'teal'} aria-hidden>
                  {initials(c.autor.nombre)}
                </Avatar>
                <Paper
                  radius="md"
                  p="sm"
                  bg={fromBuyer ? 'indigo.0' : 'teal.0'}
                  style={{ flex: 1, minWidth: 0 }}
                >
                  <Group gap={6} wrap="wrap" mb={4}>
                    <Text size="sm" fw={600}>
                      {c.autor.nombre}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {ROLE_LABEL[c.autor.rol] ?? ''} · {formatDateTime(c.fecha)}
                    </Text>
                  </Group>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {c.texto}
                  </Text>
                </Paper>
              </Group>
            );
          })}
        </Stack>
      )}
      {onSend ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Textarea
            label="Agregar un comentario"
            placeholder={
              mineIsBuyer
                ? 'Ej. ¿Pueden entregarlo antes del viernes?'
                : 'Ej. Se aprueba sin el tóner; ya hay existencia.'
            }
            autosize
            minRows={2}
            maxRows={8}
            maxLength={COMENTARIO_MAX}
            value={texto}
            onChange={(event) => {
              setTexto(event.currentTarget.value);
              if (error) setError(null);
            }}
            error={error}
            disabled={sending}
            description={
              <Text span size="xs" c="dimmed" aria-live="polite">
                {texto.length} / {COMENTARIO_MAX} caracteres ·{' '}
                {mineIsBuyer
                  ? 'Se avisará por correo a quien revisa tu pedido.'
                  : 'Se avisará por correo al comprador.'}
              </Text>
            }
            inputWrapperOrder={['label', 'input', 'description', 'error']}
          />
          <Group justify="flex-end" mt="sm">
            <Button type="submit" loading={sending} leftSection={<IconSend size={16} aria-hidden />}>
              Comentar
            </Button>
          </Group>
        </form>
      ) : null}
    </Paper>
  );
}

/** A list row's comment count (shown only when there are comments). */
export function CommentCount({ n }: { n: number | undefined }) {
  if (!n) return null;
  const label = n === 1 ? '1 comentario' : `${n} comentarios`;
  return (
    <Badge
      variant="light"
      color="indigo"
      radius="sm"
      size="sm"
      leftSection={<IconMessageCircle size={12} aria-hidden />}
      aria-label={label}
      title={label}
      data-testid="comentarios-cuenta"
    >
      {n}
    </Badge>
  );
}
