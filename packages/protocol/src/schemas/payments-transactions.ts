/** Wire schemas of the payments-transactions routes (issue 32). */
export {};
