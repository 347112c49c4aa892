/** Table types of the email tables (migrations/0003_*.sql); part of `Database` in schema.ts. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EmailTables {}
