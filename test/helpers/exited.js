/** Resolves once a child process has exited (at once if it already has). */
function exited(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

module.exports = { exited };
