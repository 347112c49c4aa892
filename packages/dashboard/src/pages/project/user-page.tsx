/** The project's User page (placeholder until it is built). */
export function UserPage() {
  return (
    <section className="dashboard-card">
      <h2>User</h2>
      <p>This page is not built yet.</p>
    </section>
  );
}
