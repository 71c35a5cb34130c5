export * from './languages.js';
export * from './errors.js';
export * from './rights.js';
export * from './schemas.js';
export * from './session.js';
export * from './organizations.js';
