// Mantine's Pagination, loaded when a list first has pages (./pagination-on-demand.tsx).
export { Pagination } from '@mantine/core';
