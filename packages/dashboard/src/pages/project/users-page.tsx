/** The project's Users page (placeholder until it is built). */
export function UsersPage() {
  return (
    <section className="dashboard-card">
      <h2>Users</h2>
      <p>This page is not built yet.</p>
    </section>
  );
}
