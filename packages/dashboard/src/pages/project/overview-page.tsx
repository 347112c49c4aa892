/** The project's Overview page (placeholder until it is built). */
export function OverviewPage() {
  return (
    <section className="dashboard-card">
      <h2>Overview</h2>
      <p>This page is not built yet.</p>
    </section>
  );
}
