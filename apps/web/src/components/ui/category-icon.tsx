/**
 * A category's icon by its `icono` name. The names are the catalogue of packages/shared/src/domain/icons.ts;
 * each is imported explicitly (the bundler keeps only these, never the whole icon set), and an unknown
 * name falls back to a package.
 */
import type { Icono } from '@portal/shared/domain/icons';
import {
  type Icon,
  IconArchive,
  IconArmchair,
  IconBallpen,
  IconBattery,
  IconBottle,
  IconBox,
  IconBrush,
  IconBucket,
  IconBulb,
  IconClipboard,
  IconCoffee,
  IconCookie,
  IconDeviceDesktop,
  IconDeviceLaptop,
  IconDeviceMobile,
  IconFireExtinguisher,
  IconFirstAidKit,
  IconFolder,
  IconGift,
  IconHammer,
  IconHeadphones,
  IconHelmet,
  IconKeyboard,
  IconLeaf,
  IconMask,
  IconMouse,
  IconNotebook,
  IconPackage,
  IconPaint,
  IconPaperclip,
  IconPencil,
  IconPill,
  IconPlug,
  IconPrinter,
  IconScissors,
  IconShirt,
  IconShoe,
  IconSpray,
  IconTag,
  IconToiletPaper,
  IconTool,
  IconToolsKitchen2,
  IconTrash,
  IconTruck,
  IconVacuumCleaner,
  IconWash,
} from '@tabler/icons-react';

const CATEGORY_ICONS: Record<Icono, Icon> = {
  IconPackage,
  IconPencil,
  IconBallpen,
  IconNotebook,
  IconPaperclip,
  IconScissors,
  IconPrinter,
  IconClipboard,
  IconFolder,
  IconArchive,
  IconTool,
  IconHammer,
  IconBrush,
  IconPaint,
  IconSpray,
  IconBucket,
  IconWash,
  IconToiletPaper,
  IconTrash,
  IconVacuumCleaner,
  IconDeviceDesktop,
  IconDeviceLaptop,
  IconDeviceMobile,
  IconKeyboard,
  IconMouse,
  IconHeadphones,
  IconPlug,
  IconBattery,
  IconBulb,
  IconShirt,
  IconShoe,
  IconHelmet,
  IconMask,
  IconFirstAidKit,
  IconPill,
  IconFireExtinguisher,
  IconCoffee,
  IconCookie,
  IconBottle,
  IconToolsKitchen2,
  IconArmchair,
  IconBox,
  IconTruck,
  IconLeaf,
  IconGift,
  IconTag,
};

/** The icon component of a category (a package when the name is unknown). */
export function categoryIcon(name: string | null | undefined): Icon {
  return (name && CATEGORY_ICONS[name as Icono]) || IconPackage;
}

interface CategoryIconProps {
  name: string | null | undefined;
  size?: number;
  stroke?: number;
}

/** Decorative: the category's name is always written next to it. */
export function CategoryIcon({ name, size = 20, stroke = 1.7 }: CategoryIconProps) {
  const Component = categoryIcon(name);
  return <Component size={size} stroke={stroke} aria-hidden />;
}
