import type { CustomerOptions, TransactionListOptions } from "@latchkey/core";
import { useQueryClient } from "@tanstack/react-query";
import { projectKey } from "../../../project-admin.js";
import type { CustomerType } from "./payments-rules.js";

/** The query keys of a project's payments data, under one prefix so a purchase or a grant can refresh the lot. */
export const paymentsKeys = {
  all: (projectId: string) => [...projectKey(projectId), "payments"] as const,
  stripeAccount: (projectId: string) => [...paymentsKeys.all(projectId), "stripe-account"] as const,
  transactions: (projectId: string, options: TransactionListOptions) => [...paymentsKeys.all(projectId), "transactions", options] as const,
  balances: (projectId: string, customer: ChosenCustomer) => [...paymentsKeys.all(projectId), "balances", customer.type, customer.id] as const,
};

/** The customer the Customers tab works on. */
export interface ChosenCustomer {
  type: CustomerType;
  id: string;
}

/** The customer as the core's item and checkout calls name it. */
export function customerOptions(customer: ChosenCustomer): CustomerOptions {
  if (customer.type === "user") return { userId: customer.id };
  if (customer.type === "team") return { teamId: customer.id };
  return { customCustomerId: customer.id };
}

/** Refreshes what a purchase or a quantity change affects: balances and transactions. */
export function useRefreshPayments(projectId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: paymentsKeys.all(projectId) });
}

/**
 * The purchase code a purchase URL holds (`<project id>_<code>`, the hosted page's address ends with it): the
 * test-mode purchase names the purchase by it, as the purchase page would.
 */
export function purchaseCodeOf(url: string, projectId: string): string | null {
  const escaped = projectId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`(?:^|[/=])(${escaped}_[A-Za-z0-9]+)(?:$|[/?&#])`).exec(decodeURIComponent(url));
  return match?.[1] ?? null;
}
