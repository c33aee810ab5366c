import { Button, Stack, type StackProps } from '@mantine/core';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { type ReactNode, useId, useState } from 'react';
import classes from './phone-filters.module.css';

interface PhoneFiltersProps extends StackProps {
  /** How many of the folded filters differ from their default: the button says it ("Filtros (2)"). */
  active: number;
  /**
   * The filters are cells of the grid this sits in (a `SimpleGrid` of filters): the button and each filter
   * take a cell, and the filters keep the grid's columns from the sm breakpoint up.
   */
  inGrid?: boolean;
  children: ReactNode;
}

/**
 * A list's secondary filters. On phones they fold behind one "Filtros" button, so the list's first row is
 * on the first screen; from the sm breakpoint up they are always shown and the button is not. CSS alone
 * decides (no width read in script), so nothing moves when the page loads.
 */
export function PhoneFilters({ active, inGrid = false, children, ...props }: PhoneFiltersProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      <Button
        hiddenFrom="sm"
        variant="default"
        leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden />}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        fullWidth
      >
        {open ? 'Ocultar filtros' : active > 0 ? `Filtros (${active})` : 'Filtros'}
      </Button>
      <Stack
        gap="sm"
        {...props}
        id={id}
        className={inGrid ? `${classes.folded} ${classes.inGrid}` : classes.folded}
        data-open={open}
      >
        {children}
      </Stack>
    </>
  );
}
