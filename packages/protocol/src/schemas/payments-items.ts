/** Wire schemas of the payments-items routes (issue 32). */
export {};
