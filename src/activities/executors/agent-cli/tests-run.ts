/**
 * Whether a coding-agent CLI ran tests, from its stream: an attempt ran tests when one of its
 * shell tool calls (Claude Code's Bash, Codex's command, Gemini's run_shell_command) started a
 * command naming a test runner. An attempt that only read files, edited them or ran other commands
 * ran no test, and its output says so (`testsRun: false`): a read-only analysis never claims tests.
 * The pattern is a fixed list (docs/agent-clis.md); a test run hidden behind a script of another
 * name is not seen, and counts as none.
 */

/** Where a command word starts and ends: a runner's name, not part of another word (`vitest-config`). */
const AT = '(?:^|[\\s;&|("\'\x60/])';
const END = '(?=$|[\\s;&|)"\'\x60])';

/** Test runners, as a command names them (each a whole word, with what must follow it). */
export const TEST_COMMAND = new RegExp(
  [
    String.raw`(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test`,
    String.raw`(?:vitest|jest|mocha|ava|tap|playwright\s+test|cypress\s+run)`,
    String.raw`node\s+--test`,
    String.raw`deno\s+test`,
    String.raw`(?:pytest|py\.test|tox|nox)`,
    String.raw`python\d*(?:\.\d+)?\s+-m\s+(?:pytest|unittest)`,
    String.raw`go\s+test`,
    String.raw`cargo\s+(?:test|nextest)`,
    String.raw`(?:mvn|mvnw|gradle|gradlew|\./mvnw|\./gradlew)\s+(?:\S+\s+)*?(?:test|check|verify)`,
    String.raw`dotnet\s+test`,
    String.raw`make\s+(?:test|check)`,
    String.raw`(?:ctest|phpunit|rspec|bats)`,
    String.raw`bundle\s+exec\s+(?:rspec|rake\s+test)`,
  ]
    .map((runner) => `${AT}${runner}${END}`)
    .join('|'),
);

/** Test commands an output lists, at most, each clipped. */
const MAX_COMMANDS = 5;
const MAX_COMMAND_CHARS = 200;

export class TestsSeen {
  readonly commands: string[] = [];
  ran = false;

  /** A shell tool call's command, as its tool-start carried it. */
  see(command: string | undefined): void {
    if (!command || !TEST_COMMAND.test(command)) return;
    this.ran = true;
    if (this.commands.length < MAX_COMMANDS) this.commands.push(command.slice(0, MAX_COMMAND_CHARS));
  }

  /** The output's fields: `testsRun`, and the commands that ran tests when some did. */
  output(): { testsRun: boolean; testCommands?: string[] } {
    return this.ran ? { testsRun: true, testCommands: this.commands } : { testsRun: false };
  }
}
