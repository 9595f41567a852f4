/** DI token of the validated QuireConfig. */
export const QUIRE_CONFIG = 'QUIRE_CONFIG';
/** DI token of the PostgreSQL URL in use (external, or the embedded server's). */
export const DATABASE_URL = 'DATABASE_URL';
