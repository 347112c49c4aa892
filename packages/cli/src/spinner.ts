/** A one-line spinner on stderr while waiting; silent when stderr is not a terminal (CI logs, pipes). */
export function startSpinner(text: string, stream: NodeJS.WriteStream = process.stderr): () => void {
  if (!stream.isTTY) return () => {};
  const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
  let frame = 0;
  const timer = setInterval(() => stream.write(`\r${frames[frame++ % frames.length]} ${text}`), 80);
  return () => {
    clearInterval(timer);
    stream.write("\r\x1b[K");
  };
}
