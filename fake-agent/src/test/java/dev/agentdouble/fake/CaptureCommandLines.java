package dev.agentdouble.fake;

import java.util.List;
import java.util.Map;

/**
 * The command line each real capture of {@code ../shared/conformance/} was made with, for the cases
 * whose {@code case.json} does not carry one ({@code argv}, the program first: a case that has one
 * needs no row here). Each row says where it comes from: the capture's published source shows it,
 * or the stream implies it (its format, the deltas of {@code --stream-partial-output}), the rest
 * being the least a run of that CLI takes. {@value #PROMPT} stands for the text of the capture's
 * {@code user} event; where a capture has none and the source does not publish the prompt, the row
 * says {@code <prompt>}: the fake plays the tape whatever the prompt.
 */
final class CaptureCommandLines {
  private CaptureCommandLines() {}

  /** Stands for the capture's own prompt, the text of its {@code user} event. */
  static final String PROMPT = "{prompt}";

  /** Where a command line comes from. */
  enum Origin {
    CASE_JSON("its case.json"),
    SOURCE("its source shows it"),
    STREAM("implied by its stream");

    private final String said;

    Origin(String said) {
      this.said = said;
    }

    @Override
    public String toString() {
      return said;
    }
  }

  /**
   * How a capture's run was started.
   *
   * @param argv the program, then its arguments
   * @param stdin what the run read on stdin ({@value #PROMPT} for the prompt), closed after it
   * @param where the source, or what in the stream implies the line
   */
  record CommandLine(Origin origin, List<String> argv, String stdin, String where) {
    CommandLine {
      argv = List.copyOf(argv);
    }

    /** This line with {@value #PROMPT} replaced by {@code prompt}. */
    CommandLine prompted(String prompt) {
      return new CommandLine(
          origin,
          argv.stream().map(a -> a.equals(PROMPT) ? prompt : a).toList(),
          stdin.equals(PROMPT) ? prompt : stdin,
          where);
    }

    @Override
    public String toString() {
      return String.join(" ", argv) + " (" + origin + ": " + where + ")";
    }
  }

  private static final String CURSOR_HACK =
      "reifying/cursor-hack docs/cursor-agent-cli.md, 'Invocation Patterns', in the commit that"
          + " added experiments/ (0f052d6): cursor-agent --print --output-format stream-json"
          + " --model auto --force \"Do something\"";

  private static CommandLine cursorHack() {
    return new CommandLine(
        Origin.SOURCE,
        List.of(
            "cursor-agent",
            "--print",
            "--output-format",
            "stream-json",
            "--model",
            "auto",
            "--force",
            PROMPT),
        "",
        CURSOR_HACK);
  }

  /** By case folder name. */
  static final Map<String, CommandLine> ROWS =
      Map.ofEntries(
          Map.entry("cursor-hack-direct-sleep", cursorHack()),
          Map.entry("cursor-hack-parallel-sleep", cursorHack()),
          Map.entry("cursor-hack-subagent-sleep", cursorHack()),
          Map.entry("cursor-hack-subagent-sleep-v2", cursorHack()),
          Map.entry(
              "multica-read-shell-edit",
              new CommandLine(
                  Origin.SOURCE,
                  List.of("cursor-agent", "-p", "--output-format", "stream-json", "--yolo"),
                  PROMPT,
                  "multica-ai/multica server/pkg/agent/cursor_stream_fixture_unix_test.go: 'a real"
                      + " `cursor-agent -p --output-format stream-json --yolo` run (2026.07.20-8cc9c0b,"
                      + " the exact invocation the daemon uses)'; cursor.go (buildCursorArgs) writes"
                      + " the prompt on stdin, never in argv")),
          Map.entry(
              "excerpt-2026-07-23-glob-edit-read-reconnect",
              new CommandLine(
                  Origin.STREAM,
                  List.of(
                      "cursor-agent",
                      "-p",
                      "--output-format",
                      "stream-json",
                      "read app.ts, then write note.txt"),
                  "",
                  "stream-json, no deltas; the quoting test file gives the task ('read app.ts, then"
                      + " write note.txt') but not the command line")),
          Map.entry(
              "excerpt-2026-09-28-probe",
              new CommandLine(
                  Origin.SOURCE,
                  List.of(
                      "cursor-agent",
                      "-p",
                      "<prompt>",
                      "--output-format",
                      "stream-json",
                      "--trust",
                      "--model",
                      "gpt-5.4-mini-low"),
                  "",
                  "kevinlin/agent-handoff docs/research/cursor-cli-specification.md §2 ('Every run"
                      + " used this shape, with stdin from /dev/null: cursor-agent -p \"<prompt>\""
                      + " --output-format stream-json --trust [--workspace <repo>] [--model <slug>]')"
                      + " and §11 ('All runs on gpt-5.4-mini-low unless noted'); the prompts are not"
                      + " published")),
          Map.entry(
              "logged-out-exit-1",
              new CommandLine(
                  Origin.STREAM,
                  List.of("agent", "-p", "--output-format", "stream-json", "<prompt>"),
                  "",
                  "stream-json (case.json); the document's resolver prefers `agent`; it does not"
                      + " publish the command line")),
          Map.entry(
              "usage-limit-exit-1",
              new CommandLine(
                  Origin.STREAM,
                  List.of(
                      "agent",
                      "-p",
                      "--output-format",
                      "stream-json",
                      "--resume",
                      "19b60fd8-1bb7-4b8a-acb2-3210997369a4",
                      "--model",
                      "gpt-5.3-codex-high",
                      PROMPT),
                  "",
                  "stream-json; the document says the run resumed the session of its init event with"
                      + " a switch of model to Codex 5.3 High (--model, the catalogue's id of that"
                      + " name); it prefers `agent`")),
          Map.entry(
              "reconnect-loop-max-retries",
              new CommandLine(
                  Origin.STREAM,
                  List.of("cursor-agent", "-p", "--output-format", "stream-json", "<prompt>"),
                  "",
                  "stream-json, no deltas; the chat log shows only the stream")));
}
