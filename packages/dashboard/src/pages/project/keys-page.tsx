/** The project's Keys page (placeholder until it is built). */
export function KeysPage() {
  return (
    <section className="dashboard-card">
      <h2>Keys</h2>
      <p>This page is not built yet.</p>
    </section>
  );
}
