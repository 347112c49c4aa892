// html-to-text 10 ships no type declarations; this is the one function the renderer uses.
declare module "html-to-text" {
  export function convert(html: string, options?: Record<string, unknown>): string;
}
