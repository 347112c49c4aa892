/** Wire schemas of the payments-purchases routes (issue 32). */
export {};
