/** The project's Team page (placeholder until it is built). */
export function TeamPage() {
  return (
    <section className="dashboard-card">
      <h2>Team</h2>
      <p>This page is not built yet.</p>
    </section>
  );
}
