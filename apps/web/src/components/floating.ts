// Mantine's controls that float (Floating UI), loaded on demand (./on-demand.ts).
export { Menu, Select, Tooltip } from '@mantine/core';
