/** Table types of the verification-code tables (migrations/0004_*.sql); part of `Database` in schema.ts. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface VerificationTables {}
