/** Users per page of the Users table. Small, so a page fits a phone screen without much scrolling. */
export const USERS_PAGE_SIZE = 10;
