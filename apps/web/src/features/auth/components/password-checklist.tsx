/**
 * The password policy as a live checklist under a new-password field: each rule of
 * packages/shared/src/domain/password.ts (and, with a confirmation, that both entries match) ticked as the
 * user types. The ticks are visual; a polite live region says how many rules are met once the user pauses,
 * so a screen reader hears the progress without a word per keystroke.
 */
import { Box, List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { passwordRuleChecks } from '@portal/shared/domain/password';
import { MSG } from '@portal/shared/messages';
import { IconCheck, IconCircleDashed } from '@tabler/icons-react';
import { checklistItems, checklistSummary } from '../lib/password-checklist-items';

interface PasswordChecklistProps {
  id: string;
  password: string;
  /** The confirmation, when the form asks for one: adds 'Las dos contraseñas coinciden'. */
  confirmation?: string;
}

export function PasswordChecklist({ id, password, confirmation }: PasswordChecklistProps) {
  const items = checklistItems(passwordRuleChecks(password), password, confirmation);
  const [settled] = useDebouncedValue(items, 600);
  return (
    <Box id={id}>
      <Text size="sm" fw={600} mb={4}>
        {MSG.reglasPasswordTitulo}
      </Text>
      <List spacing={2} size="sm" center>
        {items.map((item) => (
          <List.Item
            key={item.key}
            data-cumple={item.cumple}
            icon={
              <ThemeIcon
                color={item.cumple ? 'teal' : 'gray'}
                variant="light"
                size={20}
                radius="xl"
                aria-hidden
              >
                {item.cumple ? <IconCheck size={14} /> : <IconCircleDashed size={14} />}
              </ThemeIcon>
            }
          >
            <Text span size="sm" c={item.cumple ? 'teal.9' : 'dimmed'}>
              {item.texto}
            </Text>
            <VisuallyHidden>
              {`: ${item.cumple ? MSG.reglaPasswordCumplida : MSG.reglaPasswordPendiente}`}
            </VisuallyHidden>
          </List.Item>
        ))}
      </List>
      <VisuallyHidden role="status" aria-live="polite">
        {password ? checklistSummary(settled) : ''}
      </VisuallyHidden>
    </Box>
  );
}
