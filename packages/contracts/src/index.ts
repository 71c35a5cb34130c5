export * from './languages.js';
export * from './errors.js';
export * from './rights.js';
export * from './schemas.js';
export * from './organizations.js';
export * from './administration.js';
export * from './delegation.js';
export * from './return-path.js';
