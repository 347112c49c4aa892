/** The project's Emails page (placeholder until it is built). */
export function EmailsPage() {
  return (
    <section className="dashboard-card">
      <h2>Emails</h2>
      <p>This page is not built yet.</p>
    </section>
  );
}
