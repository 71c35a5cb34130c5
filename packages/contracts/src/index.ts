export * from './languages.js';
export * from './errors.js';
export * from './rights.js';
export * from './schemas.js';
export * from './organizations.js';
export * from './factors.js';
