import { useId, useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { errorMessage } from "../../../error-message.js";
import { useConfigOverrideUpdate } from "../project-config/project-config-queries.js";
import { OfferForm } from "./offer-form.js";
import { groupName, paymentsKey, usersOf, type OfferConfig, type PaymentsConfig } from "./payments-config.js";
import { CUSTOMER_TYPE_LABELS, formatAmounts, formatInterval } from "./payments-rules.js";

/**
 * The project's offers: what each sells (prices, included items) to whom, with a form to add one or edit the
 * one picked, and removal (refused while another offer is an add-on to it).
 */
export function OffersCard({ payments }: { payments: PaymentsConfig }) {
  const id = useId();
  const remove = useConfigOverrideUpdate();
  // null: no form open; "" the add form; an id: that offer's edit form.
  const [open, setOpen] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [blocked, setBlocked] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const offers = Object.entries(payments.offers);

  const openForm = (offerId: string) => {
    setSaved(null);
    setBlocked(null);
    setOpen(offerId);
  };
  const askToRemove = (offerId: string) => {
    remove.reset();
    const users = usersOf(payments, "offers", offerId);
    if (users.length > 0) return setBlocked(`${users.join(", ")} ${users.length === 1 ? "is an add-on" : "are add-ons"} to ${offerId}: change ${users.length === 1 ? "it" : "them"} first.`);
    setBlocked(null);
    setRemoving(offerId);
  };

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Offers</h2>
      <p className="dashboard-muted">What customers buy: a plan or a pack, with its prices and the items it includes.</p>
      {offers.length === 0 ? (
        <p>No offers yet.</p>
      ) : (
        <ul className="dashboard-list payments-offers" aria-label="Offers">
          {offers.map(([offerId, offer]) => (
            <li key={offerId}>
              <OfferSummary offerId={offerId} offer={offer} payments={payments} />
              <div className="dashboard-actions">
                <button type="button" className="dashboard-secondary dashboard-small-button" aria-label={`Edit the offer ${offerId}`} onClick={() => openForm(offerId)}>
                  Edit
                </button>
                <button type="button" className="dashboard-danger dashboard-small-button" aria-label={`Remove the offer ${offerId}`} onClick={() => askToRemove(offerId)}>
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {blocked ? (
        <p role="alert" className="dashboard-error">
          {blocked}
        </p>
      ) : null}
      <p role="status" className="dashboard-muted">
        {saved ? `Saved the offer ${saved}.` : ""}
      </p>
      {open === null ? (
        <button type="button" onClick={() => openForm("")}>
          Add an offer
        </button>
      ) : (
        <OfferForm
          key={open}
          offerId={open === "" ? null : open}
          payments={payments}
          onDone={(savedId) => {
            setSaved(savedId);
            setOpen(null);
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove this offer?"
        confirmLabel="Remove offer"
        busy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) remove.mutate({ [paymentsKey("offers", removing)]: null }, { onSuccess: () => setRemoving(null) });
        }}
      >
        <p>
          The offer <code className="dashboard-code">{removing}</code> can no longer be bought. Purchases already made stay in the transactions.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function OfferSummary({ offerId, offer, payments }: { offerId: string; offer: OfferConfig; payments: PaymentsConfig }) {
  const traits = [
    CUSTOMER_TYPE_LABELS[offer.customerType],
    offer.groupId ? `group ${groupName(payments, offer.groupId)}` : null,
    offer.isAddOnTo === false ? null : `add-on to ${Object.keys(offer.isAddOnTo).join(", ")}`,
    offer.stackable ? "stackable" : null,
    offer.serverOnly ? "server only" : null,
    offer.freeTrial ? `${formatInterval(offer.freeTrial)} free` : null,
  ].filter(Boolean);
  const prices = offer.prices === "include-by-default" ? null : Object.entries(offer.prices);
  const items = Object.entries(offer.includedItems);
  return (
    <div className="payments-offer">
      <strong>{offer.displayName || offerId}</strong> <code className="dashboard-muted">{offerId}</code>
      <div className="dashboard-muted">{traits.join(" · ")}</div>
      <div>
        {prices === null
          ? "Included by default (free)"
          : prices.length === 0
            ? "No prices"
            : prices.map(([priceId, price]) => (
                <span key={priceId} className="payments-price">
                  <code>{priceId}</code>: {formatAmounts(price)}
                  {price.interval ? ` every ${formatInterval(price.interval)}` : " once"}
                  {price.serverOnly ? " (server only)" : ""}
                </span>
              ))}
      </div>
      {items.length > 0 ? (
        <div className="dashboard-muted">Includes {items.map(([itemId, item]) => `${item.quantity} × ${payments.items[itemId]?.displayName ?? itemId}${item.repeat === "never" ? "" : ` every ${formatInterval(item.repeat)}`}`).join(", ")}</div>
      ) : null}
    </div>
  );
}
