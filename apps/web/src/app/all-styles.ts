/**
 * Mantine's whole stylesheet, loaded with the code of every view but the login page
 * (`./router.tsx`); the shell and the login page need only `./login-styles.ts`.
 */
import '@mantine/core/styles.css';
