// A pg client for one task, for bench/scale.mjs and its modules (bench/'s own `pg`, installed by harness.mjs).
const { default: pg } = await import("pg");

export async function withClient(url, task) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}
