// Mantine's Pagination, loaded when a list first has pages (./people-table.tsx).
export { Pagination } from '@mantine/core';
