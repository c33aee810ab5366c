import { Badge, Box, Button, Group, Paper, Text } from '@mantine/core';
import { MSG } from '@portal/shared/messages';
import type { ProductDto } from '@portal/shared/schemas/shopping';
import { IconEdit, IconShoppingCartPlus } from '@tabler/icons-react';
import { NewPriceNote } from '../../../components/ui/new-price-note';
import { formatMXN } from '../../../lib/format';
import { blockedLabel, type WebCartRefusal } from '../lib/cart-rules';
import { Availability } from './availability';
import classes from './product-card.module.css';
import { ProductThumb } from './product-thumb';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="xs" fw={500} ta="right" truncate>
        {value}
      </Text>
    </Group>
  );
}

interface ProductCardProps {
  product: ProductDto;
  /** Quantity already in the cart (0 when it is not there). */
  inCart: number;
  /** Category mode: the product's category has no budget this month (the server will refuse it). */
  sinPresupuesto?: boolean;
  /** Why not even one unit can be added: the button is disabled and the reason shown. */
  blocked?: WebCartRefusal | null;
  onOpen: (product: ProductDto) => void;
  /** In the first screen: its picture loads at once, not when it scrolls into view. */
  firstScreen?: boolean;
}

/** A catalogue card: picture, name, Clave, Precio, Categoría, Unidad de medida and the cart button. */
export function ProductCard({
  product,
  inCart,
  sinPresupuesto = false,
  blocked = null,
  onOpen,
  firstScreen = false,
}: ProductCardProps) {
  const titleId = `producto-${product.id}`;
  const reasonId = `producto-${product.id}-motivo`;
  return (
    <Paper
      component="article"
      aria-labelledby={titleId}
      withBorder
      radius="md"
      shadow="xs"
      className={classes.card}
    >
      <Box className={classes.media}>
        <ProductThumb src={product.miniatura} fill eager={firstScreen} />
        {inCart > 0 ? (
          <Badge pos="absolute" top={8} right={8} color="teal" variant="filled" size="sm" radius="sm">
            En tu carrito: {inCart}
          </Badge>
        ) : null}
        {sinPresupuesto || blocked ? (
          <Badge
            pos="absolute"
            bottom={8}
            left={8}
            color="dark"
            variant="filled"
            size="sm"
            radius="sm"
            opacity={0.85}
          >
            {blocked ? blockedLabel(blocked) : 'Sin presupuesto'}
          </Badge>
        ) : null}
      </Box>
      <Box className={classes.body}>
        <Text
          id={titleId}
          component="h2"
          fw={600}
          size="sm"
          lh={1.35}
          lineClamp={2}
          className={classes.name}
          title={product.nombre}
        >
          {product.nombre}
        </Text>
        <Box>
          <Field label="Clave" value={product.clave_interna} />
          <Field label="Categoría" value={product.categoria} />
          <Field label="Unidad de medida" value={product.unidad_de_medida} />
          <Field label="Por pedido" value={MSG.maximoPorPedido(product.cantidad_limite)} />
          <Availability value={product.disponibilidad} mt={4} />
        </Box>
        <Group justify="space-between" align="baseline" mt="auto" pt={4} gap={4}>
          <Text size="xs" c="dimmed">
            Precio
          </Text>
          <Text fw={700} size="lg" c="indigo.8">
            {formatMXN(product.precio)}
          </Text>
        </Group>
        <NewPriceNote pending={product.precio_programado} ta="right" />
        {blocked ? (
          <>
            <Button
              fullWidth
              disabled
              leftSection={<IconShoppingCartPlus size={16} />}
              aria-describedby={reasonId}
            >
              Agregar al carrito
            </Button>
            <Text id={reasonId} size="xs" c="dimmed" lh={1.3}>
              {blocked.msg}
            </Text>
          </>
        ) : (
          <Button
            fullWidth
            variant={inCart > 0 ? 'light' : 'filled'}
            leftSection={inCart > 0 ? <IconEdit size={16} /> : <IconShoppingCartPlus size={16} />}
            onClick={() => onOpen(product)}
          >
            {inCart > 0 ? 'Cambiar cantidad' : 'Agregar al carrito'}
          </Button>
        )}
      </Box>
    </Paper>
  );
}
