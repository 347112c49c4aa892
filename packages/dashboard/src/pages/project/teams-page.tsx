/** The project's Teams page (placeholder until it is built). */
export function TeamsPage() {
  return (
    <section className="dashboard-card">
      <h2>Teams</h2>
      <p>This page is not built yet.</p>
    </section>
  );
}
