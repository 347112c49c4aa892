/** Wire schemas of the payments-stripe routes (issue 32). */
export {};
