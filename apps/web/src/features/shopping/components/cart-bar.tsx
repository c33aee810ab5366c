import { Badge, Box, Button, VisuallyHidden } from '@mantine/core';
import { IconShoppingCart } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatMXN } from '../../../lib/format';
import { useShopper } from '../api/shopper';
import { cartUnits } from '../lib/cart-rules';

/**
 * On phones (below Mantine's `xs`), a bar at the foot of the catalogue that stays in view while the
 * buyer scrolls: 'Ver carrito · $total' with the units, once the cart holds something.
 */
export function CartBar() {
  const { carrito, totales } = useShopper();
  if (carrito.length === 0) return null;
  const units = cartUnits(carrito);
  return (
    <Box
      hiddenFrom="xs"
      pos="sticky"
      bottom={0}
      py="xs"
      style={{ zIndex: 5, background: 'var(--mantine-color-body)' }}
      data-testid="barra-carrito"
    >
      <Button
        component={Link}
        to="/usuario/carrito"
        fullWidth
        size="md"
        radius="md"
        leftSection={<IconShoppingCart size={18} aria-hidden />}
        rightSection={
          <Badge color="white" c="indigo.9" variant="filled" size="md" radius="sm">
            {units}
            <VisuallyHidden> {units === 1 ? 'artículo' : 'artículos'}</VisuallyHidden>
          </Badge>
        }
        style={{ boxShadow: 'var(--mantine-shadow-md)' }}
      >
        Ver carrito · {formatMXN(totales.total)}
      </Button>
    </Box>
  );
}
