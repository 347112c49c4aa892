/** The project's Webhooks page (placeholder until it is built). */
export function WebhooksPage() {
  return (
    <section className="dashboard-card">
      <h2>Webhooks</h2>
      <p>This page is not built yet.</p>
    </section>
  );
}
